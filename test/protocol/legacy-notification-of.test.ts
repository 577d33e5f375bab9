import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legacyNotificationOf, META_SUBSCRIPTION_ID } from '../../server/protocol/legacy-notification-of.js';

describe('legacyNotificationOf', () => {
  it('drops the subscription id and keeps everything else', () => {
    expect(legacyNotificationOf({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [META_SUBSCRIPTION_ID]: 'l1' } } })).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} });
    expect(legacyNotificationOf({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'a://b', _meta: { [META_SUBSCRIPTION_ID]: 'l1', trace: 'x' } } })).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'a://b', _meta: { trace: 'x' } },
    });
    expect(legacyNotificationOf({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' })).toEqual({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
  });

  it('passes nothing the legacy era has no word for, and no requests or answers', () => {
    expect(legacyNotificationOf({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: {} })).toBeUndefined();
    expect(legacyNotificationOf({ jsonrpc: '2.0', id: 'l1', result: { resultType: 'complete' } })).toBeUndefined();
    expect(legacyNotificationOf({ jsonrpc: '2.0', id: 3, method: 'ping' })).toBeUndefined();
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => void legacyNotificationOf(value)));
  });
});
