/**
 * The answers a retirement policy gives in place of the server, one standard shape per mechanism.
 * Pure: bodies and statuses only; the sidecar writes them.
 * A legacy client cannot fall forward, so the error its `initialize` receives may be all its user
 * ever sees: every refusal names the versions still served and links the policy.
 */
import type { ClassifiedMessage } from './classified-message.js';
import { UNSUPPORTED_PROTOCOL_VERSION } from './error-codes.js';
import type { JsonRpcId } from './read-json-rpc.js';
import type { Reason } from './vocabulary.js';

export const REFUSAL_CAUSES = [
  'cut', // the retire date passed (and the gate, if any, opened or reached its backstop)
  'brownout', // an announced window in which the scope is refused on purpose
  'block-new', // a caller with no served work in scope before the block-new date
] as const;
export type RefusalCause = (typeof REFUSAL_CAUSES)[number];

export interface RefusalContext {
  /** What is retired, in words: "the legacy protocol era (initialize handshake)". */
  retiring: string;
  planName: string;
  policyUrl: string | null;
  cause: RefusalCause;
  /** Versions the server still serves to this caller; null when they could not be learned. */
  supported: readonly string[] | null;
  /** When a brownout ends (epoch ms), for the message. */
  brownoutEndsAt?: number;
}

export interface HttpRefusal {
  status: number;
  /** Header pairs besides Content-Type and Content-Length. */
  headers: readonly string[];
  contentType: string;
  body: string;
}

function causeWords(context: RefusalContext): string {
  switch (context.cause) {
    case 'cut':
      return `${context.retiring} is retired on this server`;
    case 'brownout':
      return `${context.retiring} is refused during a scheduled brownout${context.brownoutEndsAt === undefined ? '' : ` until ${new Date(context.brownoutEndsAt).toISOString()}`}, ahead of its retirement`;
    case 'block-new':
      return `${context.retiring} is closed to new callers ahead of its retirement`;
  }
}

/** The one sentence every refusal carries: what happened, what still works, where to read more. */
export function refusalSentence(requested: string | null, context: RefusalContext): string {
  const head = requested === null ? 'Unsupported protocol version' : `Unsupported protocol version: ${requested}`;
  const supported = context.supported === null
    ? 'the versions still served here could not be learned from the server'
    : context.supported.length > 0 ? `supported versions: ${context.supported.join(', ')}` : 'no other version is served here';
  const policy = context.policyUrl === null ? '' : ` See ${context.policyUrl}`;
  const cause = causeWords(context);
  return `${head}. ${cause.charAt(0).toUpperCase()}${cause.slice(1)} (${context.planName}); ${supported}.${policy}`;
}

/**
 * Why a request the sidecar could not read was not shown modern, for the refusal's sentence: a
 * client that is modern learns what to change, and an operator reading a complaint learns why.
 */
const UNREAD: Partial<Record<Reason, string>> = {
  'body-too-large': 'its body is larger than the sidecar reads',
  'invalid-json': 'its body is not JSON that could be read',
  'invalid-message': 'its body is not a JSON-RPC message',
  'unsupported-content-type': 'its body is not declared as JSON',
  'unsupported-content-encoding': 'its Content-Encoding could not be undone',
  'ambiguous-json': 'its JSON repeats a key, so parsers read it differently',
  'batch-too-large': 'it is a batch of more messages than are read',
};

/** The sentence a refusal of an unread request ends with, or '' for one that was read. */
function unreadWords(message: ClassifiedMessage): string {
  const words = message.kind === 'other' || message.reason === 'batch-too-large' ? UNREAD[message.reason] : undefined;
  return words === undefined ? '' : ` This request could not be shown to be modern: ${words}.`;
}

/** The version a refused message asked for: its initialize's, its session's, its envelope's. */
function requestedOf(message: ClassifiedMessage): string | null {
  return message.version;
}

/** A JSON-RPC error answering one refused request: -32022 with `data: { supported, requested }`. */
export function refusalError(id: JsonRpcId | null, message: ClassifiedMessage, context: RefusalContext): Record<string, unknown> {
  const requested = requestedOf(message);
  // Unknown versions are not named, not even as none: an empty list would say that nothing is served.
  const data: Record<string, unknown> = context.supported === null ? {} : { supported: [...context.supported] };
  if (requested !== null) data.requested = requested;
  return { jsonrpc: '2.0', id, error: { code: UNSUPPORTED_PROTOCOL_VERSION, message: refusalSentence(requested, context) + unreadWords(message), data } };
}

/**
 * The HTTP answer to a refused exchange, as a server that no longer serves the scope would give it:
 * - a POST: 400 with the -32022 error (an array of them for a batch), the status the modern spec and
 *   a modern-only server use for an unsupported version, legacy initialize included;
 * - the opening GET of HTTP+SSE: 410 Gone, with a JSON body saying the transport is retired;
 * - a GET stream of a legacy session: 405, what a server offering no such stream answers.
 */
export function httpRefusal(messages: readonly ClassifiedMessage[], refused: ClassifiedMessage, sessionId: string | undefined, context: RefusalContext): HttpRefusal {
  const json = 'application/json';
  if (refused.kind === 'stream-open') {
    const error = refusalError(null, refused, context);
    if (sessionId === undefined) {
      const body = { error: 'gone', message: (error.error as { message: string }).message, supported: context.supported === null ? null : [...context.supported], policy: context.policyUrl };
      return { status: 410, headers: [], contentType: json, body: JSON.stringify(body) };
    }
    return { status: 405, headers: ['Allow', 'POST'], contentType: json, body: JSON.stringify(error) };
  }
  const requests = messages.filter((m) => m.kind === 'request');
  const batch = messages.length > 1 || messages[0]?.reason === 'batch';
  const errors = (requests.length > 0 ? requests : [refused]).map((m) => refusalError(m.id, m, context));
  return { status: 400, headers: [], contentType: json, body: JSON.stringify(batch ? errors : errors[0]) };
}

/** A refused stdio request's answer line (no newline), or undefined for a message that gets none. */
export function stdioRefusalLine(message: ClassifiedMessage, context: RefusalContext): string | undefined {
  // A line that was not read has no id to answer: JSON-RPC answers it with a null id.
  if (message.kind === 'other') return JSON.stringify(refusalError(null, message, context));
  if (message.kind !== 'request' || message.id === null) return undefined;
  return JSON.stringify(refusalError(message.id, message, context));
}
