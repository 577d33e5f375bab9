/**
 * The request a `notifications/cancelled` names. Pure. A legacy client that gives up on a request
 * says so with this notification instead of an answer ever coming: the request is then settled.
 */
import { METHOD } from './method-names.js';
import type { JsonRpcId, JsonRpcMessage } from './read-json-rpc.js';

/** The id of the request a cancellation notification names, or undefined for any other message. */
export function cancelledRequestId(message: JsonRpcMessage): JsonRpcId | undefined {
  if (message.kind !== 'notification' || message.method !== METHOD.cancelled) return undefined;
  const id = message.params?.requestId;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}
