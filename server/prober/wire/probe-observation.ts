/**
 * What a transport saw after the prober sent a request: the raw facts, before any judgement.
 * Pure types and readers; the transports produce these, the classifiers judge them.
 */
import type { JsonRpcId } from '../../protocol/read-json-rpc.js';

export type HttpBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  /** The JSON data of each SSE event read, up to and including the answer when one came. */
  | { kind: 'sse'; messages: unknown[] }
  | { kind: 'text'; contentType: string; excerpt: string };

export interface HttpResponseFacts {
  status: number;
  body: HttpBody;
  /** The session id header of the answer, when it carried one. */
  sessionId: string | null;
  retryAfter: string | null;
  authenticate: string | null;
  /** True when the request carried a legacy session id: a 404 then means the session is gone. */
  hadSession: boolean;
}

export type ProbeObservation =
  /** stdio and HTTP+SSE: the message whose id equals the sent id (type and value). */
  | { kind: 'reply'; message: unknown }
  | { kind: 'http'; response: HttpResponseFacts }
  | { kind: 'timeout' }
  /** stdio: the process exited or closed its output; HTTP+SSE: the event stream ended. */
  | { kind: 'closed'; detail: string }
  /** The peer could not be reached at all: spawn failure, refused, reset, DNS or TLS failure. */
  | { kind: 'unreachable'; detail: string }
  | { kind: 'redirect-refused'; location: string };

export type Answer =
  | { kind: 'message'; message: Record<string, unknown> }
  | { kind: 'batch' }
  | { kind: 'none'; excerpt: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON-RPC ids match only with the same type and value: "1" is not 1. */
export function isSameId(value: unknown, id: JsonRpcId): boolean {
  return typeof value === typeof id && value === id;
}

function isResponseShaped(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && !('method' in value) && ('result' in value || 'error' in value);
}

/** The text of a body for a diagnostic, cut short. */
export function excerptOf(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The JSON-RPC answer an HTTP body carries: the JSON object, or among the SSE events the one with
 * the request's id, else a null-id one, else the first response-shaped one (which is then judged
 * as uncorrelated).
 */
export function findAnswer(body: HttpBody, sentId: JsonRpcId): Answer {
  switch (body.kind) {
    case 'empty':
      return { kind: 'none', excerpt: '(empty body)' };
    case 'text':
      return { kind: 'none', excerpt: `${body.contentType || 'no content type'}: ${body.excerpt || '(empty)'}` };
    case 'json':
      if (Array.isArray(body.value)) return { kind: 'batch' };
      return isRecord(body.value) ? { kind: 'message', message: body.value } : { kind: 'none', excerpt: excerptOf(JSON.stringify(body.value)) };
    case 'sse': {
      const responses = body.messages.filter(isResponseShaped);
      const answer = responses.find((m) => isSameId(m.id, sentId)) ?? responses.find((m) => m.id === null) ?? responses[0];
      if (answer !== undefined) return { kind: 'message', message: answer };
      if (body.messages.some(Array.isArray)) return { kind: 'batch' };
      return { kind: 'none', excerpt: `event stream with ${body.messages.length} event(s) and no answer` };
    }
  }
}

/** Reads `error.code`, `error.message` and `error.data` of a JSON-RPC error member. */
export function readError(message: Record<string, unknown>): { code: number | undefined; text: string; data: unknown } {
  const error = isRecord(message.error) ? message.error : {};
  return {
    code: typeof error.code === 'number' ? error.code : undefined,
    text: typeof error.message === 'string' ? error.message : '',
    data: error.data,
  };
}

/**
 * stdio and HTTP+SSE: whether a message is the answer to the request with `id`. A message with a
 * method is the server's own request or notification, a foreign or null id belongs to someone
 * else (row 23: ignored); a batch counts when one of its elements answers (and is then malformed).
 */
export function isReplyTo(value: unknown, id: JsonRpcId): boolean {
  if (Array.isArray(value)) return value.some((element) => isReplyTo(element, id));
  return isRecord(value) && !('method' in value) && isSameId(value.id, id);
}
