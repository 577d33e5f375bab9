import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../alerts/webhook-receiver.js';
import { legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const HOUR = 3_600_000;

/** Waits for the receiver to hold `count` webhooks, for at most ten seconds. */
async function received(receiver: WebhookReceiver, count: number): Promise<unknown[]> {
  const deadline = Date.now() + 10_000;
  while (receiver.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return receiver.received.map((r) => r.body);
}

describe('a pause raises an alert when it starts and when it ends', () => {
  let upstream: RawUpstream;
  let receiver: WebhookReceiver;
  let service: TestService;
  let now = Date.now();
  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    receiver = await startWebhookReceiver();
    service = await startTestService(
      new URL(upstream.origin),
      // A schedule that will not fire during the test: only the pause's own runs and the ones asked for here.
      { alerts: { schedule: '0 0 1 1 *', webhooks: [{ name: 'ops', url: receiver.url, format: 'json' }], maxAttempts: 1, initialBackoffMs: 10 } },
      () => now,
    );
  });
  afterAll(async () => {
    await service?.dispose();
    await receiver?.close();
    await upstream?.close();
  });

  const post = async (path: string, body?: unknown) => {
    const response = await fetch(new URL(path, service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as any };
  };
  const pauseAlerts = (bodies: unknown[]) => (bodies as { rule: string; state: string; summary: string; details: Record<string, unknown> }[]).filter((b) => b.rule === 'plan-paused');

  test('pausing delivers plan-paused firing at once; resuming delivers it resolved; each exactly once', async () => {
    const { id } = await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Brownout drill' }));
    const paused = await post('/api/v1/pauses', { plans: [id], for: '4h', reason: 'partner caught' });
    expect(paused.status).toBe(201);
    const [firing] = pauseAlerts(await received(receiver, 1));
    expect(firing).toMatchObject({ state: 'firing', severity: 'warning', details: { planId: id, planName: 'Brownout drill', reason: 'partner caught', pausedBy: 'api (no admin token)', resumedAt: null } });
    expect(firing!.summary).toMatch(/^Plan "Brownout drill" is paused until \S+ by api \(no admin token\): partner caught\./);

    // A scheduled run meanwhile tells nothing new.
    now += HOUR;
    expect((await post('/api/v1/alerts/evaluate')).body.transitions.filter((t: any) => t.alert.rule === 'plan-paused')).toEqual([]);

    await post('/api/v1/pauses/resume', { plans: [id] });
    const bodies = pauseAlerts(await received(receiver, 2));
    expect(bodies.map((b) => b.state)).toEqual(['firing', 'resolved']);
    const alert = (await service.api('/api/v1/alerts')).body.alerts.find((a: any) => a.rule === 'plan-paused');
    expect(alert).toMatchObject({ state: 'resolved', fingerprint: `plan-paused:pause:${paused.body.pauses[0].id}`, deliverySummary: { delivered: 2, failed: 0 } });
  });

  test('a pause made on the store that began and ended between two runs is still told, once, then resolves', async () => {
    const { id } = await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Short one', scope: { kind: 'transport', value: 'http+sse' } }));
    await post('/api/v1/alerts/evaluate');
    const before = receiver.received.length;
    // As `mcp-sunset pause --db` makes it: on the store, with no API run after it.
    now += 60_000;
    await service.store!.pausePlans({ planIds: [id], reason: 'ten minutes', endsAt: now + 10 * 60_000, by: 'command line (ops)' }, now);
    now += HOUR;
    const run = await post('/api/v1/alerts/evaluate');
    const paused = (transitions: any[]) => transitions.filter((t) => t.alert.rule === 'plan-paused');
    expect(paused(run.body.transitions).map((t: any) => [t.kind, t.alert.rule, t.alert.summary])).toEqual([
      ['firing', 'plan-paused', `Plan "Short one" was paused from ${new Date(now - HOUR).toISOString()} to ${new Date(now - HOUR + 10 * 60_000).toISOString()} by command line (ops): ten minutes`],
    ]);
    now += HOUR;
    expect(paused((await post('/api/v1/alerts/evaluate')).body.transitions).map((t: any) => [t.kind, t.alert.rule])).toEqual([['resolved', 'plan-paused']]);
    expect(pauseAlerts((await received(receiver, before + 2)).slice(before)).map((b) => b.state)).toEqual(['firing', 'resolved']);
  });
});
