import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ALERT_RULES } from '../../server/alerts/alert-rules.js';
import { collectFindings, evaluateAlerts } from '../../server/alerts/evaluate-alerts.js';
import { loadAlertContext } from '../../server/alerts/load-alert-context.js';
import { DEFAULT_TREND_THRESHOLDS } from '../../server/analysis/compute-trend.js';
import { computeDemoLegacyShare, DEMO_HISTORY_NODE, DEMO_HISTORY_SETTING, isDemoHistorySeeded, seedDemoHistory } from '../../server/demo/seed-demo-history.js';
import { getPlan } from '../../server/store/sqlite/get-plan.js';
import { listPlans } from '../../server/store/sqlite/list-plans.js';
import { loadIntegrationViews } from '../../server/views/load-integration-views.js';
import { loadPlanView } from '../../server/views/load-plan-views.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const DAY_MS = 86_400_000;
// A Wednesday afternoon, so today is a partial day like in a real demo.
const NOW = Date.UTC(2026, 10, 25, 15, 30);

const TABLES = ['traffic_minute', 'traffic_hour', 'traffic_day', 'share_day', 'legacy_caller_day', 'integrations', 'plans', 'brownouts', 'settings'];

function tableCounts(temp: TempDatabase): Record<string, number> {
  return Object.fromEntries(TABLES.map((table) => [table, (temp.store.sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n]));
}

describe('seedDemoHistory', () => {
  let temp: TempDatabase;
  beforeEach(() => {
    temp = openTempDatabase();
  });
  afterEach(() => temp.dispose());

  test('the demo plan is off track: the legacy share flattened near 8% and the trend is flat', async () => {
    const summary = seedDemoHistory(temp.store.db, NOW);
    expect(summary.seeded).toBe(true);
    const plan = getPlan(temp.store.db, summary.planId!)!;
    expect(plan).toMatchObject({ scopeKind: 'era', scopeValue: 'legacy', basis: 'work-requests', targetShare: 0.005, retireDate: '2027-01-06', announceDate: '2026-07-28' });

    const view = await loadPlanView(temp.backend, plan, NOW, DEFAULT_TREND_THRESHOLDS);
    expect(view.status.status).toBe('off-track');
    expect(view.share.trend.kind).toBe('fitted');
    expect(view.share.trend.flat).toBe(true);
    expect(view.share.trend.projectedDate).toBeNull();
    expect(view.share.currentShare).toBeGreaterThan(0.06);
    expect(view.share.currentShare).toBeLessThan(0.1);
    expect(view.status.reason).toMatch(/flat/);

    // Six months back the share was around 45%: the curve declined before it flattened.
    const first = view.share.series.find((p) => p.share !== null)!;
    expect(first.share).toBeGreaterThan(0.35);
    // Every day has served traffic, the first one of the range included.
    expect(view.share.series.every((p) => p.share !== null)).toBe(true);
    const refused = view.share.series.reduce((s, p) => s + p.refused, 0);
    const probes = view.share.series.reduce((s, p) => s + p.probes, 0);
    expect(refused).toBeGreaterThan(0);
    expect(probes).toBeGreaterThan(0);
  });

  test('the demo plan is judged on work requests: its share is served legacy work over served work, as the store holds them', async () => {
    const summary = seedDemoHistory(temp.store.db, NOW);
    const plan = getPlan(temp.store.db, summary.planId!)!;
    const view = await loadPlanView(temp.backend, plan, NOW, DEFAULT_TREND_THRESHOLDS);
    const today = Math.floor(NOW / DAY_MS) * DAY_MS;
    const served = `kind = 'request' and outcome in ('served', 'served-as-legacy') and bucket_start = ${today}`;
    const work = `method not in ('initialize', 'server/discover', 'ping', 'logging/setLevel')`;
    const legacy = `(outcome = 'served-as-legacy' or era = 'legacy')`;
    const sum = (where: string) => (temp.store.sqlite.prepare(`select sum(count) as n from traffic_day where ${where}`).get() as { n: number }).n;
    const workShare = sum(`${served} and ${work} and ${legacy}`) / sum(`${served} and ${work}`);
    expect(view.share.basis).toBe('work-requests');
    expect(view.share.currentShare).toBe(workShare);
    // Legacy sessions negotiate more often than modern connections: counting it would raise the share.
    const allShare = sum(`${served} and ${legacy}`) / sum(served);
    expect(allShare).toBeGreaterThan(workShare);
    expect(view.share.series.at(-1)!.negotiation).toBe(sum(`${served} and method in ('initialize', 'server/discover')`));
  });

  test('two alert runs on the seeded history fire curve-flattened for the demo plan', async () => {
    const { planId } = seedDemoHistory(temp.store.db, NOW);
    const metering = { lastFlushAt: NOW, droppedEvents: 0, consecutiveFailures: 0, lastError: undefined, previousDroppedEvents: 0, watchingSince: NOW };
    const settings = { approachingDays: [30, 7, 1], noFlushMinutes: 10, refusalSpikeMinBlocked: 20, refusalSpikeFactor: 5 };
    const run = async (at: number, previous: Parameters<typeof evaluateAlerts>[0]) =>
      evaluateAlerts(previous, collectFindings(ALERT_RULES, await loadAlertContext(temp.backend, { now: at, thresholds: DEFAULT_TREND_THRESHOLDS, metering, settings })), at);
    const first = await run(NOW, []);
    const second = await run(NOW + 60_000, first.changed);
    expect(second.transitions.map((t) => [t.alert.rule, t.alert.subject])).toContainEqual(['curve-flattened', `plan:${planId}`]);
  });

  test('identifiable callers carry most of the legacy volume; the anonymous installed base the rest', async () => {
    seedDemoHistory(temp.store.db, NOW);
    const view = await loadIntegrationViews(temp.backend, listPlans(temp.store.db), NOW);
    expect(view.split.total).toBeGreaterThan(0);
    expect(view.split.identifiableShare).toBeGreaterThan(0.6);
    expect(view.split.unknown).toBeGreaterThan(0);

    const [top] = view.integrations;
    expect(top).toMatchObject({ identifiable: true, owner: 'Data Platform', status: 'contacted', claimsToBe: { name: 'report-exporter', version: '1.4.2' } });
    expect(top!.deadlines).toEqual([expect.objectContaining({ state: 'fix-by', label: 'Fix by 2027-01-06' })]);
    const keys = view.integrations.map((i) => i.key);
    expect(keys.some((k) => /^tok_[0-9a-f]{16}$/.test(k))).toBe(true);
    expect(keys).toContain('anonymous');
    // The IDE assistant migrated months ago: it is OK for the plan and has no recent legacy use.
    const ide = view.integrations.find((i) => i.displayName === 'IDE assistant')!;
    expect(ide).toMatchObject({ legacyServed: 0, status: 'done' });
    expect(ide.deadlines[0]?.label).toBe('OK');
    expect(ide.lastLegacySeen).toBeLessThan(NOW - 60 * DAY_MS);
  });

  test('files the callers the live clients play under the keys the sidecar gives those clients', async () => {
    const liveCallers = {
      'legacy-http': { integration: 'tok_00000000000000a1', source: 'bearer-fingerprint' },
      'legacy-sse': { integration: 'crm-sync', source: 'static-map' },
      // The sidecar could not tell this one apart: its caller keeps its own key.
      'modern-pin': { integration: 'anonymous', source: 'anonymous' },
    };
    seedDemoHistory(temp.store.db, NOW, { liveCallers });
    const view = await loadIntegrationViews(temp.backend, listPlans(temp.store.db), NOW);
    const exporter = view.integrations.find((i) => i.key === 'tok_00000000000000a1');
    expect(exporter).toMatchObject({ owner: 'Data Platform', claimsToBe: { name: 'report-exporter', version: '1.4.2' } });
    expect(exporter!.firstSeen).toBeLessThan(NOW - 170 * DAY_MS);
    const keys = view.integrations.map((i) => i.key);
    expect(keys).not.toContain('tok_5e0c2a91d4b7f318');
    expect(keys).toContain('crm-sync');
    expect(view.integrations.find((i) => i.displayName === 'IDE assistant')?.key).toBe('tok_c4d92e07b1a3f560');
  });

  test('everything it writes is marked as demo data and lies in the past', async () => {
    seedDemoHistory(temp.store.db, NOW);
    expect(isDemoHistorySeeded(temp.store.db)).toBe(true);
    const setting = temp.store.sqlite.prepare('select value from settings where key = ?').get(DEMO_HISTORY_SETTING) as { value: string };
    expect(setting.value).toBe(new Date(NOW).toISOString());
    const nodes = temp.store.db.all<{ node: string; latest: number; earliest: number }>(sql`select node, max(bucket_start) as latest, min(bucket_start) as earliest from traffic_minute group by node`);
    expect(nodes).toEqual([{ node: DEMO_HISTORY_NODE, latest: expect.any(Number), earliest: expect.any(Number) }]);
    expect(nodes[0]!.latest).toBeLessThanOrEqual(NOW);
    expect(nodes[0]!.earliest).toBeGreaterThanOrEqual(NOW - 181 * DAY_MS);
  });

  test('seeding twice changes nothing', async () => {
    const first = seedDemoHistory(temp.store.db, NOW);
    const before = tableCounts(temp);
    const sums = () => temp.store.sqlite.prepare('select sum(count) as n from traffic_day').get();
    const total = sums();
    const second = seedDemoHistory(temp.store.db, NOW + DAY_MS);
    expect(second).toEqual({ seeded: false, planId: null, requests: 0, cells: 0 });
    expect(tableCounts(temp)).toEqual(before);
    expect(sums()).toEqual(total);
    expect(first.requests).toBeGreaterThan(1_000_000);
  });

  test('the same now and seed write the same history', async () => {
    const a = seedDemoHistory(temp.store.db, NOW);
    const other = openTempDatabase();
    try {
      const b = seedDemoHistory(other.store.db, NOW);
      expect(b).toEqual(a);
      const dump = (t: TempDatabase) => t.store.sqlite.prepare('select * from share_day order by day, era, transport, version, outcome, request_class').all();
      expect(dump(other)).toEqual(dump(temp));
    } finally {
      other.dispose();
    }
  });

  test('the underlying curve falls from about 45% and is flat over the last twelve weeks', async () => {
    expect(computeDemoLegacyShare(180, 180)).toBeCloseTo(0.45, 1);
    for (let age = 0; age <= 84; age += 1) expect(Math.abs(computeDemoLegacyShare(age, 180) - 0.078)).toBeLessThan(0.004);
  });
});
