import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { MeteringSnapshot } from '../../server/alerts/alert-context.js';
import { deliverAlert, type Webhook } from '../../server/alerts/deliver-alert.js';
import { createAlertRunner, type AlertRunner } from '../../server/alerts/run-alerts.js';
import { DEFAULT_TREND_THRESHOLDS } from '../../server/analysis/compute-trend.js';
import type { Config } from '../../server/config/config-schema.js';
import { createLogger } from '../../server/lib/create-logger.js';
import type { AlertDraft } from '../../server/store/records/alert-record.js';
import { getAlert } from '../../server/store/sqlite/get-alert.js';
import { listAlerts } from '../../server/store/sqlite/list-alerts.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0);

const ALERT: AlertDraft = {
  fingerprint: 'curve-flattened:plan:1',
  rule: 'curve-flattened',
  subject: 'plan:1',
  state: 'firing',
  severity: 'warning',
  summary: 'Plan "Sunset": Legacy share has stopped falling at 20.00% (0.02 pp/week), above the 1.00% target',
  details: { planId: 1, currentShare: 0.2 },
  consecutiveHits: 2,
  firstFiredAt: T0,
  lastFiredAt: T0,
  resolvedAt: null,
  lastEvaluatedAt: T0,
};

const FAST = { maxAttempts: 4, initialBackoffMs: 40 };

describe('deliverAlert to a real HTTP receiver', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });
  const hook = (format: Webhook['format'] = 'json'): Webhook => ({ name: 'ops', url: receiver.url, format });

  test('retries a 500 with exponential backoff, then succeeds', async () => {
    receiver.answers.push(500, 500);
    const outcome = await deliverAlert('firing', ALERT, hook(), FAST);
    expect(outcome).toEqual({ status: 'delivered', attempts: 3, lastError: 'HTTP 500' });
    const [a, b, c] = receiver.received.map((r) => r.at);
    // Waits of about 40 then 80 ms; only lower bounds, with slack for timer granularity.
    expect(b! - a!).toBeGreaterThanOrEqual(30);
    expect(c! - b!).toBeGreaterThanOrEqual(65);
  });

  test('gives up after maxAttempts and says why', async () => {
    receiver.answers.push(503, 503, 503, 503, 503);
    const outcome = await deliverAlert('firing', ALERT, hook(), { maxAttempts: 3, initialBackoffMs: 5 });
    expect(outcome).toEqual({ status: 'failed', attempts: 3, lastError: 'HTTP 503' });
    expect(receiver.received).toHaveLength(3);
  });

  test('retries 429 but not another 4xx', async () => {
    receiver.answers.push(429);
    expect(await deliverAlert('firing', ALERT, hook(), FAST)).toMatchObject({ status: 'delivered', attempts: 2 });
    receiver.answers.push(400);
    expect(await deliverAlert('firing', ALERT, hook(), FAST)).toEqual({ status: 'failed', attempts: 1, lastError: 'HTTP 400' });
    expect(receiver.received).toHaveLength(3);
  });

  test('a redirect is a failed delivery that is neither followed nor retried', async () => {
    const elsewhere = await startWebhookReceiver([500]);
    try {
      for (const status of [301, 302, 303, 307, 308]) receiver.answers.push({ status, location: elsewhere.url });
      for (const status of [301, 302, 303, 307, 308]) {
        expect(await deliverAlert('firing', ALERT, hook(), FAST)).toEqual({ status: 'failed', attempts: 1, lastError: `HTTP ${status}: redirect not followed` });
      }
      expect(receiver.received).toHaveLength(5);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  test('a failure keeps the status and never the receiver\'s body', async () => {
    receiver.answers.push(418);
    const outcome = await deliverAlert('firing', ALERT, hook(), FAST);
    expect(outcome).toEqual({ status: 'failed', attempts: 1, lastError: 'HTTP 418' });
  });

  test('retries network errors and attempt timeouts', async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    const refused = await deliverAlert('firing', ALERT, { name: 'gone', url: closed.url, format: 'json' }, { maxAttempts: 2, initialBackoffMs: 5 });
    expect(refused).toMatchObject({ status: 'failed', attempts: 2 });
    expect(refused.lastError).toMatch(/^fetch failed: .*ECONNREFUSED/);
    expect(refused.lastError).not.toContain('/hook');

    receiver.answers.push('hang');
    // The hanging attempt waits out the whole timeout; the bound is wide so the second attempt
    // never runs into it on a loaded machine.
    const slow = await deliverAlert('firing', ALERT, hook(), { maxAttempts: 2, initialBackoffMs: 5, attemptTimeoutMs: 2_000 });
    expect(slow).toEqual({ status: 'delivered', attempts: 2, lastError: 'timed out after 2000 ms' });
  });

  test('the JSON payload carries the whole alert with ISO times', async () => {
    await deliverAlert('firing', ALERT, hook('json'), FAST);
    expect(receiver.received[0]?.contentType).toBe('application/json');
    expect(receiver.received[0]?.body).toEqual({
      source: 'mcp-sunset',
      state: 'firing',
      rule: 'curve-flattened',
      fingerprint: 'curve-flattened:plan:1',
      subject: 'plan:1',
      severity: 'warning',
      summary: ALERT.summary,
      details: { planId: 1, currentShare: 0.2 },
      firstFiredAt: '2026-11-30T12:00:00.000Z',
      lastFiredAt: '2026-11-30T12:00:00.000Z',
      resolvedAt: null,
    });
  });

  test('the Slack payload is one line of text with a plain state prefix', async () => {
    await deliverAlert('firing', ALERT, hook('slack'), FAST);
    await deliverAlert('resolved', { ...ALERT, state: 'resolved', resolvedAt: T0 + 1 }, hook('slack'), FAST);
    expect(receiver.received.map((r) => r.body)).toEqual([{ text: `[FIRING] curve-flattened: ${ALERT.summary}` }, { text: `[RESOLVED] curve-flattened: ${ALERT.summary}` }]);
  });
});

describe('the alert runner delivering transitions', () => {
  let temp: TempDatabase;
  let receiver: WebhookReceiver;
  let runner: AlertRunner;
  let now = T0;
  let health: MeteringSnapshot;
  const settings = (webhooks: Config['alerts']['webhooks']): Omit<Config['alerts'], 'digest'> => ({ scheduled: true, schedule: '*/15 * * * *', webhooks, maxAttempts: 3, initialBackoffMs: 10, noFlushMinutes: 5, approachingDays: [30, 7], refusalSpikeMinBlocked: 20, refusalSpikeFactor: 5 });
  const failing: MeteringSnapshot = { lastFlushAt: T0, droppedEvents: 0, consecutiveFailures: 2, lastError: 'database is locked' };
  const healthy: MeteringSnapshot = { lastFlushAt: T0, droppedEvents: 0, consecutiveFailures: 0, lastError: undefined };

  beforeEach(async () => {
    temp = openTempDatabase();
    receiver = await startWebhookReceiver();
    now = T0;
    health = healthy;
    runner = createAlertRunner({
      store: temp.backend,
      now: () => now,
      thresholds: DEFAULT_TREND_THRESHOLDS,
      settings: settings([
        { name: 'ops-json', url: receiver.url, format: 'json' },
        { name: 'ops-slack', url: receiver.url.replace('/hook', '/slack'), format: 'slack' },
      ]),
      metering: () => ({ ...health, lastFlushAt: now }),
      logger: createLogger('silent'),
    });
  });
  afterEach(async () => {
    await runner.close();
    await receiver.close();
    temp.dispose();
  });

  test('an alert that stays firing is delivered once; its resolve is delivered too', async () => {
    health = failing;
    const first = await runner.run();
    expect(first.transitions.map((t) => [t.kind, t.alert.fingerprint, t.deliveries.map((d) => [d.webhook, d.status])])).toEqual([
      ['firing', 'metering-loss:metering', [['ops-json', 'delivered'], ['ops-slack', 'delivered']]],
    ]);
    now += 15 * 60_000;
    expect((await runner.run()).transitions).toEqual([]);
    expect(receiver.received).toHaveLength(2);

    health = healthy;
    now += 15 * 60_000;
    const third = await runner.run();
    expect(third.transitions.map((t) => [t.kind, t.alert.state, t.alert.resolvedAt])).toEqual([['resolved', 'resolved', now]]);
    const bodies = receiver.received.map((r) => r.body as Record<string, unknown>);
    expect(bodies.map((b) => b.state ?? String(b.text).slice(0, 10))).toEqual(expect.arrayContaining(['firing', '[FIRING] m', 'resolved', '[RESOLVED]']));
    expect(bodies).toHaveLength(4);
    expect(bodies.find((b) => b.state === 'resolved')).toMatchObject({ rule: 'metering-loss', resolvedAt: new Date(now).toISOString() });

    const stored = getAlert(temp.store.db, first.transitions[0]!.alert.id)!;
    expect(stored.deliveries.map((d) => [d.transition, d.webhook, d.format, d.status, d.attempts])).toEqual(
      expect.arrayContaining([
        ['firing', 'ops-json', 'json', 'delivered', 1],
        ['firing', 'ops-slack', 'slack', 'delivered', 1],
        ['resolved', 'ops-json', 'json', 'delivered', 1],
        ['resolved', 'ops-slack', 'slack', 'delivered', 1],
      ]),
    );
  });

  test('a failing webhook is recorded as a failed delivery and never fails the run', async () => {
    receiver.answers.push(500, 500, 500, 500, 500, 500);
    health = failing;
    const run = await runner.run();
    const deliveries = run.transitions[0]!.deliveries;
    expect(deliveries.map((d) => [d.status, d.attempts, d.lastError])).toEqual([
      ['failed', 3, 'HTTP 500'],
      ['failed', 3, 'HTTP 500'],
    ]);
    const [listed] = listAlerts(temp.store.db, { state: 'firing' });
    expect(listed?.deliverySummary).toEqual({ delivered: 0, failed: 2, lastError: 'HTTP 500', lastAt: now });
  });

  test('a redirecting webhook is stored as failed with its status and no text from either target', async () => {
    const elsewhere = await startWebhookReceiver([500, 500, 500, 500]);
    try {
      receiver.answers.push({ status: 307, location: elsewhere.url }, { status: 307, location: elsewhere.url });
      health = failing;
      const run = await runner.run();
      expect(elsewhere.received).toEqual([]);
      const stored = getAlert(temp.store.db, run.transitions[0]!.alert.id)!;
      expect(stored.deliveries.map((d) => [d.webhook, d.status, d.attempts, d.lastError])).toEqual(
        expect.arrayContaining([
          ['ops-json', 'failed', 1, 'HTTP 307: redirect not followed'],
          ['ops-slack', 'failed', 1, 'HTTP 307: redirect not followed'],
        ]),
      );
      expect(JSON.stringify(stored)).not.toMatch(/moved to|from the receiver|127\.0\.0\.1/);
    } finally {
      await elsewhere.close();
    }
  });

  test('closing the runner abandons pending retries and records them as failed', async () => {
    receiver.answers.push('hang', 'hang');
    health = failing;
    const pending = runner.run();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runner.busy).toBe(true);
    await runner.close();
    const run = await pending;
    expect(run.transitions[0]!.deliveries.map((d) => [d.status, d.lastError])).toEqual([
      ['failed', 'the service is stopping'],
      ['failed', 'the service is stopping'],
    ]);
    await expect(runner.run()).rejects.toThrow('closed');
  });
});
