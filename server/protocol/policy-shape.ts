/**
 * What a retirement policy judges a message by: the era, transport and version of the path it
 * travels, and whether it is refusable at all. Pure.
 */
import type { ClassifiedMessage } from './classified-message.js';
import type { Era, Transport } from './vocabulary.js';

export interface PolicyShape {
  era: Era;
  transport: Transport;
  version: string | null;
}

/**
 * The shape of a message for the policy, or undefined when refusing it would help nobody: only
 * requests and stream openings are refused. A notification or a client's answer costs the server
 * nothing once the requests around it are refused, and a session's DELETE only ends what exists.
 * A GET that carries no session can only be the opening of HTTP+SSE (Streamable HTTP streams
 * belong to a session), so it is judged as that transport before its first event says so.
 */
export function policyShapeOf(message: ClassifiedMessage, sessionId: string | undefined): PolicyShape | undefined {
  if (message.kind === 'request') return message;
  if (message.kind !== 'stream-open') return undefined;
  if (message.transport === 'streamable-http' && sessionId === undefined && message.reason === 'get-stream') return { era: 'legacy', transport: 'http+sse', version: null };
  return message;
}
