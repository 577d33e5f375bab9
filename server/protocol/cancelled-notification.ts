/**
 * The notification that cancels a request on stdio. Pure.
 */
import { METHOD } from './method-names.js';
import type { JsonRpcId } from './read-json-rpc.js';

export interface CancelledNotification {
  jsonrpc: '2.0';
  method: string;
  params: { requestId: JsonRpcId; reason?: string };
}

/**
 * `notifications/cancelled` naming `requestId`: on modern stdio the only way a client cancels
 * (26:basic/transports/stdio.mdx §Cancellation), and in the legacy era also how a server gives up
 * on a request of its own. It carries no version: a notification's `_meta` has no such key
 * (S26:schema.ts NotificationMetaObject).
 */
export function cancelledNotification(requestId: JsonRpcId, reason: unknown): CancelledNotification {
  return { jsonrpc: '2.0', method: METHOD.cancelled, params: { requestId, ...(typeof reason === 'string' ? { reason } : {}) } };
}
