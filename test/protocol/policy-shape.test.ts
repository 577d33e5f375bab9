import { describe, expect, test } from 'vitest';
import { classified } from '../../server/protocol/classified-message.js';
import { policyShapeOf } from '../../server/protocol/policy-shape.js';

const base = { id: null, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' } as const;

describe('policyShapeOf', () => {
  test('requests and stream openings are judged by era, transport and version; notifications, answers and DELETE are not', () => {
    expect(policyShapeOf(classified({ ...base, kind: 'request', method: 'tools/call', id: 1 }), 'sid')).toMatchObject({ era: 'legacy', transport: 'streamable-http', version: '2025-06-18' });
    expect(policyShapeOf(classified({ ...base, kind: 'stream-open', method: 'GET' }), 'sid')).toMatchObject({ transport: 'streamable-http' });
    for (const kind of ['notification', 'response', 'session-delete', 'other'] as const) expect(policyShapeOf(classified({ ...base, kind, method: 'x' }), 'sid')).toBeUndefined();
  });

  test('a GET with no session is judged as the opening of HTTP+SSE before its first event says so', () => {
    expect(policyShapeOf(classified({ ...base, kind: 'stream-open', method: 'GET', reason: 'get-stream', version: null }), undefined)).toEqual({ era: 'legacy', transport: 'http+sse', version: null });
  });
});
