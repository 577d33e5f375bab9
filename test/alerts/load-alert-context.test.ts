import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ALERT_RULES } from '../../server/alerts/alert-rules.js';
import { collectFindings } from '../../server/alerts/evaluate-alerts.js';
import { loadAlertContext } from '../../server/alerts/load-alert-context.js';
import { createAlertRunner } from '../../server/alerts/run-alerts.js';
import { DEFAULT_TREND_THRESHOLDS } from '../../server/analysis/compute-trend.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { createLogger } from '../../server/lib/create-logger.js';
import { getIntegration } from '../../server/store/sqlite/get-integration.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../server/store/records/plan-record.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';

const TODAY = Date.UTC(2027, 0, 15);
const NOW = TODAY + 12 * 3_600_000 + 30 * 60_000;
const SETTINGS = { approachingDays: [30, 7], noFlushMinutes: 5, refusalSpikeMinBlocked: 20, refusalSpikeFactor: 5 };
const METERING = { lastFlushAt: NOW, droppedEvents: 0, consecutiveFailures: 0, lastError: undefined };

const plan: PlanInput = {
  name: 'Legacy sunset',
  scopeKind: 'era',
  scopeValue: 'legacy',
  announceDate: '2026-10-01',
  retireDate: '2027-01-01',
  targetShare: 0.01,
  basis: 'work-requests',
  policyUrl: 'https://example.test/legacy',
  brownouts: [],
  action: 'deny',
  blockNewCallersFrom: null,
  quietDays: 30,
  gate: { backstopDate: '2027-01-25', maxShare: null },
  exemptions: [{ integration: 'tok_x', until: '2027-01-18', note: 'vendor fix due' }],
  declaredKey: null,
};

describe('the enforcement rules on stored counts', () => {
  let temp: TempDatabase;
  const write = (cells: TallyCell[]) =>
    createTallyWriter(temp.store.db)({
      cells,
      integrations: [...new Set(cells.map((c) => c.integration))].map((key) => ({ key, source: 'bearer-fingerprint', firstSeen: cells[0]!.minute, lastSeen: NOW, lastLegacySeen: undefined, clientInfo: undefined })),
    });

  beforeEach(() => {
    temp = openTempDatabase();
  });
  afterEach(() => temp.dispose());

  test('an expiring exemption, a gate held near its backstop and a burst of refusals are each found', async () => {
    const { id } = insertPlan(temp.store.db, plan, TODAY - 100 * DAY_MS);
    write([
      trafficCell({ minute: TODAY - 2 * DAY_MS, integration: 'tok_a', count: 40 }),
      trafficCell({ minute: TODAY + 11 * 3_600_000 + 10 * 60_000, integration: 'tok_b', outcome: 'blocked', count: 30 }),
      // The hour in progress is not judged yet.
      trafficCell({ minute: TODAY + 12 * 3_600_000 + 5 * 60_000, integration: 'tok_c', outcome: 'blocked', count: 300 }),
    ]);
    const context = await loadAlertContext(temp.backend, { now: NOW, thresholds: DEFAULT_TREND_THRESHOLDS, settings: SETTINGS, metering: { ...METERING, previousDroppedEvents: 0, watchingSince: NOW } });
    const found = collectFindings(ALERT_RULES, context)
      .filter((f) => ['exemption-expiring', 'gate-holding-near-backstop', 'refusal-spike'].includes(f.rule.id))
      .map((f) => [f.rule.id, f.subject]);
    expect(found).toEqual([
      ['exemption-expiring', `plan:${id}:exemption:tok_x`],
      ['gate-holding-near-backstop', `plan:${id}`],
      ['refusal-spike', 'integration:tok_b'],
    ]);
  });

  test('a run closes the callers gone quiet before the rules judge', async () => {
    insertPlan(temp.store.db, { ...plan, gate: null, exemptions: [] }, TODAY - 100 * DAY_MS);
    write([trafficCell({ minute: TODAY - 45 * DAY_MS, integration: 'tok_gone' }), trafficCell({ minute: TODAY - DAY_MS, integration: 'tok_here' })]);
    const runner = createAlertRunner({ store: temp.backend, now: () => NOW, thresholds: DEFAULT_TREND_THRESHOLDS, settings: { ...SETTINGS, schedule: '*/15 * * * *', webhooks: [], maxAttempts: 1, initialBackoffMs: 10 }, metering: () => METERING, logger: createLogger('silent') });
    try {
      await runner.run();
    } finally {
      await runner.close();
    }
    expect(getIntegration(temp.store.db, 'tok_gone')).toMatchObject({ status: 'done', autoClosedAt: NOW, statusBeforeClose: 'unknown' });
    expect(getIntegration(temp.store.db, 'tok_here')).toMatchObject({ status: 'unknown', autoClosedAt: null });
  });
});
