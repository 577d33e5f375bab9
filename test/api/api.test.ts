import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeBatch } from '../support/write-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { trafficCell } from '../store/temp-database.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

/** Modern traffic at T0 unless a row says otherwise. */
function cell(overrides: Partial<TallyCell>): TallyCell {
  return trafficCell({ minute: T0, node: 'n1', era: 'modern', reason: 'modern-meta', version: '2026-07-28', ...overrides });
}

describe('the HTTP API', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}'));
    service = await startTestService(new URL(upstream.origin), { flushIntervalMs: 600_000 });
    await writeBatch(service.store!, {
      cells: [
        cell({ count: 5 }),
        cell({ minute: T0 + 60_000, count: 2, mismatchCount: 1 }),
        cell({ minute: T0 + HOUR, era: 'legacy', reason: 'session-header', version: '2025-11-25', count: 3, integration: 'tok_b' }),
        cell({ minute: T0 + 2 * HOUR, era: 'legacy', transport: 'http+sse', reason: 'sse-message', version: '2025-11-25', method: 'tools/list', count: 4, node: 'n2' }),
        cell({ minute: T0 + 2 * HOUR, era: 'unknown', reason: 'invalid-json', version: '(none)', method: '(unparsed)', outcome: 'client-error', count: 1, integration: 'anonymous' }),
      ],
      integrations: [],
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const range = `from=${new Date(T0).toISOString()}&to=${new Date(T0 + 3 * HOUR).toISOString()}`;

  test('traffic is grouped by the requested dimension, every bucket present, in time order', async () => {
    const { status, body } = await service.api(`/api/v1/traffic?${range}&bucket=hour&groupBy=era`);
    expect(status).toBe(200);
    expect(body).toEqual({
      bucket: 'hour',
      groupBy: 'era',
      from: '2026-11-20T10:00:00.000Z',
      to: '2026-11-20T13:00:00.000Z',
      series: [
        { start: '2026-11-20T10:00:00.000Z', counts: { modern: 7 } },
        { start: '2026-11-20T11:00:00.000Z', counts: { legacy: 3 } },
        { start: '2026-11-20T12:00:00.000Z', counts: { legacy: 4, unknown: 1 } },
      ],
      totals: { modern: 7, legacy: 7, unknown: 1 },
      claimMismatches: 1,
      wouldBlock: 0,
    });
  });

  test.each([
    ['transport', { 'streamable-http': 11, 'http+sse': 4 }],
    ['reason', { 'modern-meta': 7, 'session-header': 3, 'sse-message': 4, 'invalid-json': 1 }],
    ['version', { '2026-07-28': 7, '2025-11-25': 7, '(none)': 1 }],
    ['method', { 'tools/call': 10, 'tools/list': 4, '(unparsed)': 1 }],
    ['outcome', { served: 14, 'client-error': 1 }],
    ['integration', { tok_a: 11, tok_b: 3, anonymous: 1 }],
    ['node', { n1: 11, n2: 4 }],
  ])('groupBy=%s totals', async (groupBy, totals) => {
    const { body } = await service.api(`/api/v1/traffic?${range}&groupBy=${groupBy}`);
    expect(body.totals).toEqual(totals);
  });

  test('filters are exact matches and combine', async () => {
    const { body } = await service.api(`/api/v1/traffic?${range}&groupBy=method&era=legacy&transport=http%2Bsse`);
    expect(body.totals).toEqual({ 'tools/list': 4 });
    const none = await service.api(`/api/v1/traffic?${range}&groupBy=era&version=2025-11`);
    expect(none.body.totals).toEqual({});
  });

  test('minute buckets come from the minute table, day buckets from the day table', async () => {
    const minutes = await service.api(`/api/v1/traffic?from=${new Date(T0).toISOString()}&to=${new Date(T0 + 180_000).toISOString()}&bucket=minute`);
    expect(minutes.body.series.map((s: { counts: object }) => s.counts)).toEqual([{ modern: 5 }, { modern: 2 }, {}]);
    const days = await service.api(`/api/v1/traffic?from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z&bucket=day`);
    expect(days.body.series).toEqual([{ start: '2026-11-20T00:00:00.000Z', counts: { modern: 7, legacy: 7, unknown: 1 } }]);
  });

  test.each([
    ['bucket=week', 'bucket'],
    ['groupBy=colour', 'groupBy'],
    ['from=yesterday', 'from'],
    ['to=2026-13-01T00:00:00Z', 'to'],
    [`from=${new Date(T0).toISOString()}&to=${new Date(T0).toISOString()}`, 'from'],
    ['era=ancient', 'era'],
    ['transport=carrier-pigeon', 'transport'],
    ['reason=because', 'reason'],
    ['outcome=maybe', 'outcome'],
    ['version=', 'version'],
    ['method=' + 'x'.repeat(300), 'method'],
    ['colour=blue', 'colour'],
    ['bucket=hour&bucket=day', 'bucket'],
    ['bucket=minute&from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z', 'bucket'],
  ])('bad query %s answers 400 naming %s', async (query, parameter) => {
    const { status, body } = await service.api(`/api/v1/traffic?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.parameter).toBe(parameter);
    expect(body.error.message).toContain(parameter);
  });

  test('an unknown API path answers 404 in JSON', async () => {
    const { status, body } = await service.api('/api/v1/nothing-here');
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
  });

  test('reads include every request completed before the call, even between flushes', async () => {
    const response = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret-token-123' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
    });
    await response.text();
    const { body } = await service.api(`/api/v1/traffic?bucket=minute&groupBy=integration&from=${new Date(Date.now() - 600_000).toISOString()}`);
    const keys = Object.keys(body.totals);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^tok_[0-9a-f]{16}$/);
  });

  test('/healthz reports liveness and metering health', async () => {
    const { status, body } = await service.api('/healthz');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', node: 'test-node', store: { available: true }, metering: { droppedEvents: 0, meteringErrors: 0 } });
    expect(Date.parse(body.metering.lastFlushAt)).toBeGreaterThan(0);
  });

  test('/metrics is Prometheus text with no caller identity in its labels', async () => {
    const response = await fetch(new URL('/metrics', service.apiUrl));
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/mcp_sunset_messages_total\{era="modern",transport="streamable-http",reason="modern-meta",outcome="served"\} 1/);
    expect(text).toContain('mcp_sunset_dropped_events 0');
    expect(text).not.toMatch(/tok_|secret-token|integration=/);
  });

  test.each(['/api/v1/traffic', '/api/v1/share', '/api/v1/plans', '/api/v1/integrations', '/api/v1/alerts', '/api/v1/fleet'])('%s writes the counts held in memory before it answers', async (path) => {
    const response = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
    });
    await response.text();
    // /healthz is outside /api and never flushes, so it shows what is still held.
    expect((await service.api('/healthz')).body.metering.pendingEvents).toBeGreaterThan(0);
    await service.api(path);
    expect((await service.api('/healthz')).body.metering.pendingEvents).toBe(0);
  });
});
