import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { dayStart } from '../../server/analysis/plan-clock.js';
import { deleteExpiredTraffic } from '../../server/store/sqlite/delete-expired-traffic.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../server/store/records/plan-record.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { loadPlanEnforcement } from '../../server/views/load-plan-enforcement.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const at = (date: string, hour: number, minute = 0) => dayStart(date) + hour * HOUR_MS + minute * MINUTE_MS;

// Served cells end before the 30 quiet days (from 2027-02-10 12:00), so the gate is open.
// Retention keeps 14 days of minute rows: the old brownout, block-new and the cut (from 2027-03-01, before
// the oldest minute row left) are counted on hour rows, the recent brownout on minute rows.
const NOW = at('2027-03-12', 12);
const oldBrownout = { startsAt: at('2027-02-06', 14), endsAt: at('2027-02-06', 16), note: 'first brownout' };
const recentBrownout = { startsAt: at('2027-03-05', 10, 30), endsAt: at('2027-03-05', 11, 30), note: null };

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    name: 'Retire legacy',
    scopeKind: 'era',
    scopeValue: 'legacy',
    announceDate: '2027-01-01',
    retireDate: '2027-03-01',
    targetShare: 0.005,
    basis: 'work-requests',
    policyUrl: 'https://example.com/policy',
    brownouts: [oldBrownout, recentBrownout],
    action: 'deny',
    blockNewCallersFrom: '2027-02-01',
    quietDays: 30,
    gate: { backstopDate: '2027-06-01', maxShare: null },
    exemptions: [
      { integration: 'tok_lapsed', until: '2027-03-10', note: null },
      { integration: 'tok_kept', until: '2027-04-30', note: 'vendor upgrade' },
    ],
    declaredKey: null,
    ...overrides,
  };
}

/** Refusals in scope, refusals out of it, and would-blocks, spread over every window and around their edges. */
const cells: TallyCell[] = [
  // Inside the old brownout, which is also inside block-new: counted in both.
  trafficCell({ minute: at('2027-02-06', 14, 5), outcome: 'blocked', integration: 'tok_a', count: 7 }),
  trafficCell({ minute: at('2027-02-06', 15, 59), outcome: 'blocked', integration: 'tok_b', count: 2, wouldBlockCount: 0 }),
  trafficCell({ minute: at('2027-02-06', 15, 10), outcome: 'served', integration: 'tok_c', count: 9, wouldBlockCount: 4 }),
  // Block-new only.
  trafficCell({ minute: at('2027-02-03', 9), outcome: 'blocked', integration: 'tok_new', count: 5 }),
  trafficCell({ minute: at('2027-02-08', 9), outcome: 'served', integration: 'tok_new', count: 3, wouldBlockCount: 3 }),
  // Before block-new: no window counts them.
  trafficCell({ minute: at('2027-01-20', 9), outcome: 'blocked', integration: 'tok_a', count: 11 }),
  // Out of scope or not a request: never counted.
  trafficCell({ minute: at('2027-02-06', 14, 30), era: 'modern', reason: 'modern-meta', outcome: 'blocked', integration: 'tok_m', count: 13 }),
  trafficCell({ minute: at('2027-03-03', 9), kind: 'notification', method: 'notifications/initialized', outcome: 'blocked', integration: 'tok_a', count: 17 }),
  // The recent brownout, inside the cut: minute rows, so the refusal at 10:10, in the same hour, is outside it.
  trafficCell({ minute: at('2027-03-05', 10, 10), outcome: 'blocked', integration: 'tok_a', count: 19 }),
  trafficCell({ minute: at('2027-03-05', 10, 45), outcome: 'blocked', integration: 'tok_a', count: 23 }),
  // The cut, from the retire date.
  trafficCell({ minute: at('2027-03-02', 8), outcome: 'blocked', integration: 'tok_b', count: 29 }),
  trafficCell({ minute: at('2027-03-12', 11, 59), outcome: 'blocked', integration: 'tok_b', count: 31 }),
];

/** What a window should show, from the cells alone: requests shaped like the legacy era whose minute falls in [from, to). */
function expected(from: number, to: number) {
  const inside = cells.filter((c) => c.kind === 'request' && c.era === 'legacy' && c.minute >= from && c.minute < to);
  return {
    refused: inside.filter((c) => c.outcome === 'blocked').reduce((sum, c) => sum + c.count, 0),
    wouldBlock: inside.reduce((sum, c) => sum + (c.wouldBlockCount ?? 0), 0),
  };
}

describe('loadPlanEnforcement', () => {
  let db: TempDatabase;
  beforeEach(() => {
    db = openTempDatabase();
    createTallyWriter(db.store.db)({ cells, integrations: [] });
    deleteExpiredTraffic(db.store.db, NOW, { minuteDays: 14, hourDays: 400 });
  });
  afterEach(() => db.dispose());

  test('counts refused and would-block requests in scope over each window; a refusal in two windows counts in both', async () => {
    const plan = insertPlan(db.store.db, planInput(), NOW);
    const enforcement = await loadPlanEnforcement(db.backend, plan, NOW);
    const window = (kind: string, index = 0) => enforcement.timeline.filter((w) => w.kind === kind)[index]!;

    expect(enforcement.gate.kind).toBe('open');
    expect(enforcement.phase).toBe('cut');
    expect(window('brownout', 0).counts).toMatchObject({ ...expected(oldBrownout.startsAt, oldBrownout.endsAt), bucket: 'hour' });
    expect(window('brownout', 1).counts).toMatchObject({ ...expected(recentBrownout.startsAt, recentBrownout.endsAt), bucket: 'minute' });
    expect(window('block-new').counts).toMatchObject({ ...expected(dayStart('2027-02-01'), dayStart('2027-03-01')), bucket: 'hour' });
    expect(window('cut').counts).toMatchObject({ ...expected(dayStart('2027-03-01'), NOW), bucket: 'hour' });

    // The figures the expectations above stand for, so a wrong filter on both sides cannot agree by accident.
    expect(window('brownout', 0).counts).toMatchObject({ refused: 9, wouldBlock: 4 });
    expect(window('brownout', 1).counts).toMatchObject({ refused: 23, wouldBlock: 0 });
    expect(window('block-new').counts).toMatchObject({ refused: 14, wouldBlock: 7 });
    expect(window('cut').counts).toMatchObject({ refused: 102, wouldBlock: 0 });
    expect(window('announce').counts).toBeNull();
    expect(window('retire').counts).toBeNull();
    expect(window('backstop').counts).toBeNull();
  });

  test('states each window at now, and which exemptions still hold', async () => {
    const plan = insertPlan(db.store.db, planInput(), NOW);
    const enforcement = await loadPlanEnforcement(db.backend, plan, NOW);
    expect(enforcement.timeline.map((w) => [w.kind, w.state])).toEqual([
      ['announce', 'in-force'],
      ['block-new', 'past'],
      ['brownout', 'past'],
      ['retire', 'past'],
      ['cut', 'in-force'],
      ['brownout', 'past'],
      ['backstop', 'upcoming'],
    ]);
    expect(enforcement.exemptions.map((e) => [e.integration, e.active, e.endsAt])).toEqual([
      ['tok_lapsed', false, dayStart('2027-03-11')],
      ['tok_kept', true, dayStart('2027-05-01')],
    ]);
  });

  test('while a caller served in scope holds the gate, the cut waits for the backstop and block-new counts up to now', async () => {
    createTallyWriter(db.store.db)({ cells: [trafficCell({ minute: at('2027-03-08', 9), outcome: 'served', integration: 'tok_still', count: 1 })], integrations: [] });
    const plan = insertPlan(db.store.db, planInput(), NOW);
    const enforcement = await loadPlanEnforcement(db.backend, plan, NOW);
    expect(enforcement.phase).toBe('gate-holding');
    expect(enforcement.gate.holdingCallers.map((c) => c.integration)).toEqual(['tok_still']);
    expect(enforcement.gate.words).toContain('1 identifiable caller');
    const cut = enforcement.timeline.find((w) => w.kind === 'cut')!;
    expect(cut).toMatchObject({ at: dayStart('2027-06-01'), state: 'upcoming', counts: null });
    expect(enforcement.timeline.find((w) => w.kind === 'block-new')!.counts).toMatchObject(expected(dayStart('2027-02-01'), NOW));
  });

  test('a plan in dry run sees the would-block counts of its windows', async () => {
    const plan = insertPlan(db.store.db, planInput({ action: 'dryrun' }), NOW);
    const enforcement = await loadPlanEnforcement(db.backend, plan, NOW);
    expect(enforcement.action).toBe('dryrun');
    expect(enforcement.timeline.find((w) => w.kind === 'block-new')!.counts?.wouldBlock).toBe(7);
  });

  test('windows older than the hour rows retention kept are counted on day rows', async () => {
    deleteExpiredTraffic(db.store.db, NOW, { minuteDays: 1, hourDays: 30 });
    const plan = insertPlan(db.store.db, planInput(), NOW);
    const enforcement = await loadPlanEnforcement(db.backend, plan, NOW);
    expect(enforcement.timeline.find((w) => w.kind === 'block-new')!.counts).toMatchObject({ ...expected(dayStart('2027-02-01'), dayStart('2027-03-01')), bucket: 'day' });
  });

  test('while minute rows reach back to a window, it is counted on them', async () => {
    const fresh = openTempDatabase();
    try {
      createTallyWriter(fresh.store.db)({ cells, integrations: [] });
      const plan = insertPlan(fresh.store.db, planInput(), NOW);
      const enforcement = await loadPlanEnforcement(fresh.backend, plan, NOW);
      expect(enforcement.timeline.filter((w) => w.counts !== null).map((w) => w.counts!.bucket)).toEqual(['minute', 'minute', 'minute', 'minute']);
      expect(enforcement.timeline.find((w) => w.kind === 'block-new')!.counts).toMatchObject(expected(dayStart('2027-02-01'), dayStart('2027-03-01')));
    } finally {
      fresh.dispose();
    }
  });
});
