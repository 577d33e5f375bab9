import { isRecord } from './is-record.js';

/** The key a modern server stamps on every message of a `subscriptions/listen` stream (S26 L1262-1401). */
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** What a legacy client's standalone stream asks of the modern server: the list changes, which need no state. */
export const LIST_CHANGED_FILTER = Object.freeze({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });

/**
 * A notification from a modern `subscriptions/listen` stream as a legacy client's standalone stream
 * carries it: without the subscription id the legacy era never had. Undefined for what has no legacy
 * counterpart (the stream's acknowledgement) and for anything that is not a notification. Pure.
 */
export function legacyNotificationOf(message: unknown): { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> } | undefined {
  if (!isRecord(message) || typeof message.method !== 'string' || 'id' in message) return undefined;
  if (message.method === 'notifications/subscriptions/acknowledged') return undefined;
  const { params } = message;
  if (!isRecord(params)) return { jsonrpc: '2.0', method: message.method };
  const { _meta, ...rest } = params;
  if (!isRecord(_meta)) return { jsonrpc: '2.0', method: message.method, params: rest };
  const { [META_SUBSCRIPTION_ID]: _subscription, ...meta } = _meta;
  return { jsonrpc: '2.0', method: message.method, params: Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta } };
}
