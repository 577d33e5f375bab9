import { describe, expect, test } from 'vitest';
import { cancelledNotification } from '../../server/protocol/cancelled-notification.js';

describe('cancelledNotification', () => {
  test('names the request by its id, and keeps a reason only when it is text', () => {
    expect(cancelledNotification('b-1', 'enough')).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'b-1', reason: 'enough' } });
    expect(cancelledNotification(7, undefined)).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(cancelledNotification(7, new Error('x'))).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
  });

  test('carries no _meta: a notification has no version to carry', () => {
    expect('_meta' in cancelledNotification(1, 'r').params).toBe(false);
  });
});
