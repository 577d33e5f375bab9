import { INVALID_PARAMS, INVALID_REQUEST } from './error-codes.js';
import { isRecord } from './is-record.js';
import { isId } from './read-json-rpc.js';

/**
 * What the bridge does with one message a legacy client sent in a session, by what the modern era
 * kept of it (26:changelog.mdx §Major changes):
 * - `initialize`: answered from the server's `server/discover`.
 * - `answer`: requests the modern era removed and the edge can answer alone (`ping`; `logging/setLevel`,
 *   whose level the self-contained requests do not carry).
 * - `accept`: notifications, acknowledged with 202 (`notifications/initialized` ends a handshake the
 *   modern server never sees).
 * - `cancel`: `notifications/cancelled`, also acknowledged; the modern era cancels by closing the
 *   request's connection, so the bridge closes the one it opened for that request.
 * - `forward`: every other request, made self-contained for the modern server.
 * - `subscribe`: `resources/subscribe` and `resources/unsubscribe`, which change what the session's
 *   standalone stream listens for.
 * - `response`: the client's answer to a request the bridge sent it for an `input_required`
 *   result; the bridge refuses one it is not waiting for.
 * - `refuse`: what cannot be mapped (a batch, a message that is not JSON-RPC), answered with a
 *   JSON-RPC error, never dropped.
 */
export type BridgeStep =
  | { kind: 'initialize'; id: string | number; params: Record<string, unknown> }
  | { kind: 'answer'; id: string | number; result: Record<string, never> }
  | { kind: 'accept' }
  | { kind: 'cancel'; requestId: string | number }
  | { kind: 'forward'; id: string | number; method: string; params: unknown }
  | { kind: 'response'; id: string | number; result: unknown; error: unknown }
  | { kind: 'subscribe'; id: string | number; uri: string; subscribe: boolean }
  | { kind: 'refuse'; id: string | number | null; code: number; message: string };

const ANSWERED_AT_EDGE: ReadonlySet<string> = new Set(['ping', 'logging/setLevel']);

/** Legacy resource subscriptions: the modern era folds them into the filter of `subscriptions/listen`. */
const SUBSCRIBE: ReadonlyMap<string, boolean> = new Map([['resources/subscribe', true], ['resources/unsubscribe', false]]);

/** Decides the bridge's step for one parsed POST body of a legacy session. Pure; never throws. */
export function bridgeStep(body: unknown): BridgeStep {
  if (Array.isArray(body)) return { kind: 'refuse', id: null, code: INVALID_REQUEST, message: 'mcp-sunset bridge: JSON-RPC batches are not bridged; send each message on its own' };
  if (!isRecord(body) || body.jsonrpc !== '2.0') return { kind: 'refuse', id: null, code: INVALID_REQUEST, message: 'mcp-sunset bridge: not a JSON-RPC 2.0 message' };
  const { id, method, params } = body;
  if (typeof method !== 'string') {
    if (isId(id) && ('result' in body || 'error' in body)) return { kind: 'response', id, result: body.result, error: body.error };
    return { kind: 'refuse', id: isId(id) ? id : null, code: INVALID_REQUEST, message: 'mcp-sunset bridge: not a JSON-RPC request, notification or response' };
  }
  if (!('id' in body)) {
    const requestId = isRecord(params) ? params.requestId : undefined;
    return method === 'notifications/cancelled' && isId(requestId) ? { kind: 'cancel', requestId } : { kind: 'accept' };
  }
  if (!isId(id)) return { kind: 'refuse', id: null, code: INVALID_REQUEST, message: 'mcp-sunset bridge: a request id must be a string or a number' };
  if (method === 'initialize') return { kind: 'initialize', id, params: isRecord(params) ? params : {} };
  if (ANSWERED_AT_EDGE.has(method)) return { kind: 'answer', id, result: {} };
  const subscribe = SUBSCRIBE.get(method);
  if (subscribe !== undefined) {
    const uri = isRecord(params) ? params.uri : undefined;
    if (typeof uri !== 'string' || uri === '') return { kind: 'refuse', id, code: INVALID_PARAMS, message: `mcp-sunset bridge: ${method} needs params.uri` };
    return { kind: 'subscribe', id, uri, subscribe };
  }
  return { kind: 'forward', id, method, params };
}
