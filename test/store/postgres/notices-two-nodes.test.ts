import { afterAll, describe, expect, test } from 'vitest';
import { createAlertRunner } from '../../../server/alerts/run-alerts.js';
import { DEFAULT_TREND_THRESHOLDS } from '../../../server/analysis/compute-trend.js';
import { createLogger } from '../../../server/lib/create-logger.js';
import { openStore } from '../../../server/store/open-store.js';
import type { Store } from '../../../server/store/store.js';
import { startWebhookReceiver } from '../../alerts/webhook-receiver.js';
import { createTestDatabase, type TestDatabase } from '../../support/create-test-database.js';
import { planInput } from '../../support/plan-input.js';
import { cell, sighting, writeCells } from '../contract/backends.js';

const DAY = 86_400_000;

describe('notices from two nodes sharing one Postgres', () => {
  const databases: TestDatabase[] = [];
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
    for (const db of databases) await db.drop();
  });

  test('both nodes run the notices at once, and each is sent exactly once, by one of them', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const receiver = await startWebhookReceiver();
    try {
      const [one, two] = [await openStore(db.url), await openStore(db.url)];
      stores.push(one!, two!);
      const now = Date.now();
      const today = Math.floor(now / DAY) * DAY;
      const callers = Array.from({ length: 12 }, (_, i) => `tok_caller_${i}`);
      await writeCells(one!, callers.map((integration, i) => cell({ minute: today - (i % 5) * DAY, integration, count: 10 + i })), callers.map((key) => sighting({ key, firstSeen: today - 5 * DAY, lastSeen: today })));
      const retire = new Date(today + 5 * DAY).toISOString().slice(0, 10);
      // Two stages due at once (a brownout in 3 days, the cut in 5), at thresholds 7 and 1: the 7-day notice of each.
      await one!.insertPlan(planInput({ retireDate: retire, announceDate: '2026-01-01', noticeDays: [7, 1], brownouts: [{ startsAt: today + 3 * DAY, endsAt: today + 3 * DAY + 3_600_000, note: null }] }), now);

      const settings = { webhooks: [{ name: 'outreach', url: receiver.url, format: 'json' as const }], maxAttempts: 1, initialBackoffMs: 10, noFlushMinutes: 5, approachingDays: [], refusalSpikeMinBlocked: 20, refusalSpikeFactor: 5, schedule: '* * * * *' };
      const runner = (store: Store, node: string) => createAlertRunner({ store, now: Date.now, thresholds: DEFAULT_TREND_THRESHOLDS, settings, logger: createLogger('silent'), node });
      const runners = [runner(one!, 'node-a'), runner(two!, 'node-b')];
      const runs = await Promise.all([...runners, ...runners].map((r) => r.run()));
      await Promise.all(runners.map((r) => r.close()));

      const sent = runs.flatMap((run) => run.notices.map((n) => `${n.notice.integration}|${n.notice.stage}`));
      expect(sent.sort()).toEqual(callers.flatMap((c) => [`${c}|brownout`, `${c}|cut`]).sort());
      const received = receiver.received.map((r) => r.body as { kind: string; caller: { integration: string }; stage: { kind: string } }).filter((b) => b.kind === 'notice');
      expect(received.map((b) => `${b.caller.integration}|${b.stage.kind}`).sort()).toEqual(sent.sort());
      const rows = await one!.listCallerNotices();
      expect(rows).toHaveLength(24);
      expect(rows.every((r) => r.status === 'delivered' && r.daysBefore === 7)).toBe(true);
      expect(new Set(rows.map((r) => r.node)).size).toBeGreaterThanOrEqual(1);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
