import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { bucketStart } from '../../server/lib/time-bucket.js';
import { writeBatch } from '../support/write-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { trafficCell } from '../store/temp-database.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const SEED_DAYS = 70;
const day = (offset: number) => new Date(bucketStart(Date.now(), 'day') + offset * DAY_MS).toISOString().slice(0, 10);

/** Ten weeks of a legacy share stuck near 20%, plus a caller first seen on the legacy path two days ago. */
function flatTraffic(today: number): TallyCell[] {
  const cells: TallyCell[] = [];
  for (let d = SEED_DAYS; d >= 0; d -= 1) {
    // Midday on past days; today's traffic at midnight, which has surely passed.
    const minute = today - d * DAY_MS + (d === 0 ? 0 : 12 * 3_600_000);
    cells.push(trafficCell({ minute, integration: 'tok_old', count: 200 + (d % 3) }));
    cells.push(trafficCell({ minute, era: 'modern', reason: 'modern-meta', version: '2026-07-28', integration: 'tok_modern', count: 800 }));
    if (d <= 2) cells.push(trafficCell({ minute, integration: 'tok_new', count: 1 }));
  }
  return cells;
}

describe('the alerts API', () => {
  let upstream: RawUpstream;
  let receiver: WebhookReceiver;
  let service: TestService;
  const post = async (path: string, body?: unknown) => {
    const response = await fetch(new URL(path, service.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    receiver = await startWebhookReceiver();
    service = await startTestService(new URL(upstream.origin), {
      // A schedule that will not fire during the test: the runs here are the ones the test asks for.
      alerts: { schedule: '0 0 1 1 *', webhooks: [{ name: 'ops', url: receiver.url, format: 'json' }], maxAttempts: 2, initialBackoffMs: 10 },
    });
    await writeBatch(service.store!, { cells: flatTraffic(bucketStart(Date.now(), 'day')), integrations: [] });
  });
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await upstream?.close();
  });

  test('no alerts before any evaluation', async () => {
    expect(await service.api('/api/v1/alerts')).toEqual({ status: 200, body: { alerts: [] } });
  });

  test('a flat curve above target fires curve-flattened on the second evaluation, delivered once', async () => {
    const created = await post('/api/v1/plans', { name: 'Legacy sunset', scope: { kind: 'era', value: 'legacy' }, announceDate: day(-SEED_DAYS), retireDate: day(120), targetShare: 0.01 });
    expect(created.status).toBe(201);
    expect(created.body.trend.flat).toBe(true);

    const first = await post('/api/v1/alerts/evaluate');
    expect(first.status).toBe(200);
    expect(Date.parse(first.body.evaluatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(first.body.transitions.map((t: any) => [t.kind, t.alert.fingerprint])).toEqual([
      ['firing', `projection-misses-retire-date:plan:${created.body.id}`],
      ['firing', 'new-legacy-integration:integration:tok_new'],
    ]);
    expect(first.body.alerts.map((a: any) => [a.fingerprint, a.state, a.consecutiveHits])).toEqual(
      expect.arrayContaining([[`curve-flattened:plan:${created.body.id}`, 'pending', 1]]),
    );

    const second = await post('/api/v1/alerts/evaluate', {});
    expect(second.body.transitions).toHaveLength(1);
    const [fired] = second.body.transitions;
    expect(fired).toMatchObject({ kind: 'firing', alert: { rule: 'curve-flattened', subject: `plan:${created.body.id}`, state: 'firing', severity: 'warning', consecutiveHits: 2 } });
    expect(fired.alert.summary).toMatch(/^Plan "Legacy sunset": Legacy share has stopped falling at 20\.\d\d% \(.+ pp\/week\), above the 1\.00% target$/);
    expect(fired.alert.firstFiredAt).toBe(second.body.evaluatedAt);
    expect(fired.deliveries).toEqual([{ id: expect.any(Number), transition: 'firing', webhook: 'ops', format: 'json', status: 'delivered', attempts: 1, lastError: null, at: expect.any(String) }]);

    // Still flat: no new transition, nothing delivered again.
    const third = await post('/api/v1/alerts/evaluate');
    expect(third.body.transitions).toEqual([]);
    const flattened = receiver.received.filter((r) => (r.body as any).rule === 'curve-flattened');
    expect(flattened).toHaveLength(1);
    expect(flattened[0]?.body).toMatchObject({ source: 'mcp-sunset', state: 'firing', fingerprint: fired.alert.fingerprint, resolvedAt: null, firstFiredAt: fired.alert.firstFiredAt });
    expect(receiver.received).toHaveLength(3);
  });

  test('the list filters by state, newest first, with a delivery summary', async () => {
    const { status, body } = await service.api('/api/v1/alerts?state=firing');
    expect(status).toBe(200);
    expect(body.alerts.map((a: any) => a.rule).sort()).toEqual(['curve-flattened', 'new-legacy-integration', 'projection-misses-retire-date']);
    for (const alert of body.alerts) {
      expect(alert.deliverySummary).toEqual({ delivered: 1, failed: 0, lastError: null, lastAt: expect.any(String) });
      expect(alert.lastEvaluatedAt).toMatch(/Z$/);
    }
    expect((await service.api('/api/v1/alerts?state=pending')).body).toEqual({ alerts: [] });
    expect((await service.api('/api/v1/alerts?state=resolved')).body).toEqual({ alerts: [] });
  });

  test('one alert comes with its deliveries', async () => {
    const { body: list } = await service.api('/api/v1/alerts?state=firing');
    const flattened = list.alerts.find((a: any) => a.rule === 'curve-flattened');
    const { status, body } = await service.api(`/api/v1/alerts/${flattened.id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: flattened.id, fingerprint: flattened.fingerprint, state: 'firing', details: { currentShare: expect.any(Number), targetShare: 0.01 } });
    expect(body.deliveries).toEqual([{ id: expect.any(Number), transition: 'firing', webhook: 'ops', format: 'json', status: 'delivered', attempts: 1, lastError: null, at: expect.any(String) }]);
  });

  test.each([
    ['/api/v1/alerts?state=loud', 400, 'state'],
    ['/api/v1/alerts?volume=11', 400, undefined],
    ['/api/v1/alerts/abc', 400, 'id'],
    ['/api/v1/alerts/0', 400, 'id'],
    ['/api/v1/alerts/999999', 404, 'id'],
  ])('GET %s → %i naming %s', async (path, status, parameter) => {
    const answer = await service.api(path);
    expect(answer.status).toBe(status);
    expect(answer.body.error.parameter).toBe(parameter ?? 'volume');
    if (status === 400) expect(answer.body.error.code).toBe('invalid_parameter');
  });

  test('evaluate takes no parameters', async () => {
    const answer = await post('/api/v1/alerts/evaluate', { force: true });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('unknown parameter: force');
  });
});
