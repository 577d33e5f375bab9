import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput, PlanRecord } from '../../server/store/records/plan-record.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { loadGateState } from '../../server/views/load-gate-state.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';

const TODAY = Date.UTC(2027, 0, 15);
const NOW = TODAY + 12 * 3_600_000;
const daysAgo = (n: number) => TODAY - n * DAY_MS + 3_600_000;
const modern: Partial<TallyCell> = { era: 'modern', reason: 'modern-meta', version: '2026-07-28' };

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
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
    gate: { backstopDate: '2027-06-01', maxShare: null },
    exemptions: [],
    declaredKey: null,
    ...overrides,
  };
}

describe('loadGateState', () => {
  let temp: TempDatabase;
  let write: (cells: TallyCell[]) => void;
  const gated = (overrides: Partial<PlanInput> = {}): PlanRecord => insertPlan(temp.store.db, planInput(overrides), daysAgo(100));

  beforeEach(() => {
    temp = openTempDatabase();
    const writer = createTallyWriter(temp.store.db);
    write = (cells) => writer({ cells, integrations: [] });
  });
  afterEach(() => temp.dispose());

  test('identifiable callers served in scope in the quiet days hold the gate; anonymous and overflowed ones do not', async () => {
    write([
      trafficCell({ minute: daysAgo(10), integration: 'tok_a' }),
      trafficCell({ minute: daysAgo(1), integration: 'anonymous', count: 50 }),
      trafficCell({ minute: daysAgo(1), integration: 'other', count: 50 }),
      trafficCell({ minute: daysAgo(40), integration: 'tok_old' }),
    ]);
    const state = await loadGateState(temp.backend, gated(), NOW);
    expect(state.kind).toBe('holding');
    expect(state.holdingCallers).toEqual([{ integration: 'tok_a', lastUse: TODAY - 10 * DAY_MS }]);
  });

  test('only served work counts: refused, negotiating and modern traffic holds nothing', async () => {
    write([
      trafficCell({ minute: daysAgo(1), integration: 'tok_blocked', outcome: 'blocked' }),
      trafficCell({ minute: daysAgo(1), integration: 'tok_refused', method: 'initialize', outcome: 'unsupported-version' }),
      trafficCell({ minute: daysAgo(1), integration: 'tok_handshake', method: 'initialize' }),
      trafficCell({ minute: daysAgo(1), integration: 'tok_modern', ...modern }),
    ]);
    expect(await loadGateState(temp.backend, gated(), NOW)).toMatchObject({ kind: 'open', cutInForce: true, holdingCallers: [] });
  });

  test('the quiet days count whole UTC days: a caller last served 31 days before today no longer holds, one served 30 days before still does', async () => {
    write([trafficCell({ minute: daysAgo(31), integration: 'tok_gone' }), trafficCell({ minute: daysAgo(30), integration: 'tok_last' })]);
    expect((await loadGateState(temp.backend, gated(), NOW)).holdingCallers.map((c) => c.integration)).toEqual(['tok_last']);
  });

  test('an exempt caller holds nothing until its exemption lapses', async () => {
    write([trafficCell({ minute: daysAgo(2), integration: 'tok_exempt' }), trafficCell({ minute: daysAgo(2), integration: 'tok_lapsed' })]);
    const plan = gated({ exemptions: [{ integration: 'tok_exempt', until: '2027-02-01', note: null }, { integration: 'tok_lapsed', until: '2027-01-14', note: null }] });
    expect((await loadGateState(temp.backend, plan, NOW)).holdingCallers.map((c) => c.integration)).toEqual(['tok_lapsed']);
    const lapse = Date.UTC(2027, 1, 2);
    expect((await loadGateState(temp.backend, plan, lapse - 1)).holdingCallers.map((c) => c.integration)).toEqual(['tok_lapsed']);
    expect((await loadGateState(temp.backend, plan, lapse)).holdingCallers.map((c) => c.integration)).toEqual(['tok_exempt', 'tok_lapsed']);
  });

  test('the share over the quiet days holds the gate above maxShare, whoever sends it; older traffic does not count', async () => {
    write([
      // 20 legacy of 100 served work requests in the window: 20%.
      trafficCell({ minute: daysAgo(3), integration: 'anonymous', count: 20 }),
      trafficCell({ minute: daysAgo(3), integration: 'tok_modern', ...modern, count: 80 }),
      // Before the window: would make the share 92% if it counted.
      trafficCell({ minute: daysAgo(45), integration: 'anonymous', count: 1000 }),
    ]);
    expect(await loadGateState(temp.backend, gated({ gate: { backstopDate: '2027-06-01', maxShare: 0.1 } }), NOW)).toMatchObject({ kind: 'holding', shareAboveMax: true, holdingCallers: [] });
    expect(await loadGateState(temp.backend, gated({ gate: { backstopDate: '2027-06-01', maxShare: 0.2 } }), NOW)).toMatchObject({ kind: 'open', shareAboveMax: false });
    expect((await loadGateState(temp.backend, gated({ gate: { backstopDate: '2027-06-01', maxShare: 0.5 } }), NOW)).words).toBe(
      'The gate is open: no identifiable caller used the scope in the last 30 days; the cut is in force.',
    );
  });

  test('the share is counted on the plan\'s basis: negotiation counts only under all-requests', async () => {
    write([
      trafficCell({ minute: daysAgo(3), integration: 'anonymous', count: 10 }),
      trafficCell({ minute: daysAgo(3), integration: 'anonymous', method: 'initialize', count: 40 }),
      trafficCell({ minute: daysAgo(3), integration: 'tok_modern', ...modern, count: 90 }),
    ]);
    const gate = { backstopDate: '2027-06-01', maxShare: 0.2 };
    // Work requests: 10 of 100. All requests: 50 of 140.
    expect((await loadGateState(temp.backend, gated({ gate }), NOW)).shareAboveMax).toBe(false);
    expect((await loadGateState(temp.backend, gated({ gate, basis: 'all-requests' }), NOW)).shareAboveMax).toBe(true);
  });

  test('a plan without a gate cuts at its retire date, whoever is still there', async () => {
    write([trafficCell({ minute: daysAgo(1), integration: 'tok_a' })]);
    expect(await loadGateState(temp.backend, gated({ gate: null }), NOW)).toMatchObject({ kind: 'no-gate', cutInForce: true, holdingCallers: [] });
  });

  test('the quiet days are the plan\'s own', async () => {
    write([trafficCell({ minute: daysAgo(10), integration: 'tok_a' })]);
    expect((await loadGateState(temp.backend, gated({ quietDays: 7 }), NOW)).kind).toBe('open');
    expect((await loadGateState(temp.backend, gated({ quietDays: 14 }), NOW)).kind).toBe('holding');
  });
});
