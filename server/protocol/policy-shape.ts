/**
 * What a retirement policy judges a message by: the era, transport and version of the path the
 * server would serve it on, and whether it is refusable at all. Pure.
 *
 * This is the one place that says what makes an HTTP request modern to a policy. The counts file
 * a message by the mechanism its body names (classify-rpc-message.ts); the policy must judge what
 * the server would do with it, and a server serves on the modern path only what it can tell is
 * modern. So a request is judged modern only when all of these hold:
 * - its body carries the modern envelope (`_meta` protocol version) naming a modern revision
 *   (`isModernVersion`): a dual-era server serves `_meta: "anything"` on its legacy path;
 * - it belongs to no legacy session and no HTTP+SSE channel, and is not in a batch: a legacy
 *   server serves the session's requests whatever their `_meta` says;
 * - its mirrored headers agree with the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`):
 *   a modern server refuses a disagreement (-32020), and a legacy one serves it.
 * Headers alone never show a request modern: a request whose body was not read (past the cap, a
 * content type, charset or content coding the sidecar does not read, JSON it cannot parse, or a
 * reading that is ambiguous) is judged legacy, and so is one whose envelope is missing though its
 * headers claim modern. Under deny, what is not shown to be modern is refused (counted `blocked`
 * with the reason it could not be shown), and a client that really is modern never sends it.
 * Stdio has no headers and no sessions: a line is modern only when its request carries the
 * envelope naming a modern revision, outside a batch; a line that cannot be read is judged legacy.
 */
import { classified, type ClassifiedMessage } from './classified-message.js';
import { isModernVersion } from './versions.js';
import type { Era, Transport } from './vocabulary.js';

export interface PolicyShape {
  era: Era;
  transport: Transport;
  version: string | null;
}

/** What a stdio line tells the policy: only whether it was a batch. */
export interface StdioContext {
  stdio: true;
  batch: boolean;
}

/** What the HTTP exchange around a message tells the policy (see HttpRequestClassification). */
export interface JudgedContext {
  stdio?: false;
  sessionId: string | undefined;
  /** True when the session is one the sidecar saw initialized (a Streamable HTTP session). */
  knownSession: boolean;
  /** True when the body was a JSON-RPC batch. */
  batch: boolean;
  /** True when a modern request's mirrored headers disagree with its body. */
  claimMismatch: boolean;
  /** The version a legacy reading of the request gives: its session's or channel's, its header's, the spec's assumption. */
  legacyVersion: string | null;
  /** True when the GET is at a path the server opened an HTTP+SSE stream on. */
  httpSseStreamPath: boolean;
}

/** A legacy-judged message at the version a legacy server would serve it under. */
function asLegacy(message: ClassifiedMessage, context: JudgedContext): PolicyShape {
  return { era: 'legacy', transport: message.transport, version: context.legacyVersion };
}

/** True when the message carries the modern envelope naming a modern revision: the body shows it. */
function envelopeShowsModern(message: ClassifiedMessage): boolean {
  return message.era === 'modern' && message.reason === 'modern-meta' && message.version !== null && isModernVersion(message.version);
}

function judgedRequest(message: ClassifiedMessage, context: JudgedContext): PolicyShape {
  if (message.era !== 'modern') return message.era === 'legacy' ? message : asLegacy(message, context);
  const servedModern = envelopeShowsModern(message) && context.sessionId === undefined && message.transport !== 'http+sse' && !context.batch && !context.claimMismatch;
  return servedModern ? message : asLegacy(message, context);
}

/** Stdio: the envelope shows a request modern outside a batch; anything unread is legacy, at no known version. */
function stdioShapeOf(message: ClassifiedMessage, batch: boolean): PolicyShape | undefined {
  switch (message.kind) {
    case 'request':
      if (message.era === 'legacy') return message;
      return envelopeShowsModern(message) && !batch ? message : { era: 'legacy', transport: message.transport, version: message.era === 'modern' ? message.version : null };
    case 'other':
      // A line the sidecar cannot read may still be one the server reads (another JSON parser).
      return { era: 'legacy', transport: message.transport, version: null };
    default:
      return undefined;
  }
}

/**
 * The shape of a message for the policy, or undefined when refusing it would help nobody: only
 * requests, stream openings and requests whose body could not be read are refused. A
 * notification or a client's answer costs the server nothing once the requests around it are
 * refused, and a session's DELETE only ends what exists.
 * A GET that carries no session, or one at an HTTP+SSE stream path, can only open HTTP+SSE
 * (Streamable HTTP streams belong to a session), so it is judged as that transport before its
 * first event says so. A stdio line is judged by stdioShapeOf.
 */
export function policyShapeOf(message: ClassifiedMessage, context: JudgedContext | StdioContext): PolicyShape | undefined {
  if (context.stdio) return stdioShapeOf(message, context.batch);
  switch (message.kind) {
    case 'request':
      return judgedRequest(message, context);
    case 'other':
      // A body the sidecar could not read, or that carries no JSON-RPC message: the server may still read one.
      return asLegacy(message, context);
    case 'stream-open': {
      const opensHttpSse = message.transport === 'streamable-http' && message.reason === 'get-stream' && (context.sessionId === undefined || context.httpSseStreamPath);
      return opensHttpSse ? { era: 'legacy', transport: 'http+sse', version: null } : message;
    }
    default:
      return undefined;
  }
}

/**
 * A second shape the policy must also judge, when the sidecar cannot tell which transport a GET
 * opens: one naming a session the sidecar never saw initialized may be an HTTP+SSE opening (an
 * HTTP+SSE server ignores the header), so it is refused if either transport is.
 */
export function alternateShapeOf(message: ClassifiedMessage, context: JudgedContext): PolicyShape | undefined {
  if (message.kind !== 'stream-open' || message.transport !== 'streamable-http') return undefined;
  if (context.sessionId === undefined || context.knownSession || context.httpSseStreamPath) return undefined;
  return { era: 'legacy', transport: 'http+sse', version: null };
}

/**
 * The messages of a refused exchange as the policy judged them, so what a cut refuses is counted
 * where it was judged: a legacy session's call with a modern `_meta` is a blocked legacy call, and
 * an opening at an HTTP+SSE stream path a blocked HTTP+SSE opening. The reason stays what was seen.
 */
export function asJudged(messages: readonly ClassifiedMessage[], context: JudgedContext): ClassifiedMessage[] {
  return messages.map((message) => {
    const shape = policyShapeOf(message, context);
    if (shape === undefined || (shape.era === message.era && shape.transport === message.transport && shape.version === message.version)) return message;
    return classified({ ...message, era: shape.era, transport: shape.transport, version: shape.version });
  });
}
