import { describe, expect, test } from 'vitest';
import { classified, type ClassifiedMessage } from '../../server/protocol/classified-message.js';
import { httpRefusal, refusalError, refusalSentence, stdioRefusalLine, type RefusalContext } from '../../server/protocol/policy-refusal.js';

const CONTEXT: RefusalContext = {
  retiring: 'the legacy MCP protocol era',
  planName: 'Retire legacy',
  policyUrl: 'https://example.com/policy',
  cause: 'cut',
  supported: ['2026-07-28'],
};

const request = (id: number, method = 'tools/call', reason: ClassifiedMessage['reason'] = 'session-header'): ClassifiedMessage =>
  classified({ kind: 'request', method, id, era: 'legacy', transport: 'streamable-http', reason, version: '2025-06-18' });
const notification = classified({ kind: 'notification', method: 'notifications/initialized', id: null, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' });
const streamOpen = classified({ kind: 'stream-open', method: 'GET', id: null, era: 'legacy', transport: 'http+sse', reason: 'get-stream', version: null });

describe('refusals', () => {
  test('the sentence says what happened, what is still served and where the policy is', () => {
    expect(refusalSentence('2025-06-18', CONTEXT)).toBe(
      'Unsupported protocol version: 2025-06-18. The legacy MCP protocol era is retired on this server (Retire legacy); supported versions: 2026-07-28. See https://example.com/policy',
    );
    expect(refusalSentence(null, { ...CONTEXT, supported: [], policyUrl: null, cause: 'block-new' })).toBe(
      'Unsupported protocol version. The legacy MCP protocol era is closed to new callers ahead of its retirement (Retire legacy); no other version is served here.',
    );
    expect(refusalSentence(null, { ...CONTEXT, cause: 'brownout', brownoutEndsAt: Date.parse('2026-12-02T16:00:00Z') })).toContain('during a scheduled brownout until 2026-12-02T16:00:00.000Z');
  });

  test('a refused request is answered -32022 with its id, the versions served and the one requested', () => {
    expect(refusalError(7, request(7), CONTEXT)).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-06-18' } } });
  });

  test('a POST is refused with 400: one error, or one per request for a batch', () => {
    const single = httpRefusal([request(1)], request(1), 'sid', CONTEXT);
    expect(single.status).toBe(400);
    expect(JSON.parse(single.body)).toMatchObject({ id: 1, error: { code: -32022 } });
    const batch = httpRefusal([request(1, 'tools/call', 'batch'), notification, request(2, 'tools/list', 'batch')], request(2), 'sid', CONTEXT);
    expect(batch.status).toBe(400);
    expect((JSON.parse(batch.body) as { id: number }[]).map((e) => e.id)).toEqual([1, 2]);
    const one = httpRefusal([request(3, 'tools/call', 'batch')], request(3, 'tools/call', 'batch'), 'sid', CONTEXT);
    expect(Array.isArray(JSON.parse(one.body))).toBe(true);
  });

  test('opening HTTP+SSE gets 410 Gone; a session\'s GET stream gets 405 with Allow: POST', () => {
    const gone = httpRefusal([streamOpen], streamOpen, undefined, CONTEXT);
    expect(gone.status).toBe(410);
    expect(JSON.parse(gone.body)).toMatchObject({ error: 'gone', supported: ['2026-07-28'], policy: 'https://example.com/policy' });
    const session = httpRefusal([streamOpen], streamOpen, 'sid', CONTEXT);
    expect(session).toMatchObject({ status: 405, headers: ['Allow', 'POST'] });
  });

  test('on stdio a refused request gets one answer line; a notification gets none', () => {
    expect(JSON.parse(stdioRefusalLine(request(4), CONTEXT)!)).toMatchObject({ id: 4, error: { code: -32022 } });
    expect(stdioRefusalLine(notification, CONTEXT)).toBeUndefined();
  });
});
