import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { dayStart } from '../../server/analysis/plan-clock.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../server/store/records/plan-record.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { getPolicyVersion } from '../../server/store/sqlite/policy-version.js';
import { updatePlan } from '../../server/store/sqlite/update-plan.js';
import { loadPolicyInputs } from '../../server/views/load-policy-inputs.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../store/temp-database.js';

const HOUR = 3_600_000;
const NOW = dayStart('2027-03-12') + 12 * HOUR;
const noon = (date: string) => dayStart(date) + 12 * HOUR;

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    name: 'Retire legacy', scopeKind: 'era', scopeValue: 'legacy', announceDate: '2027-01-01', retireDate: '2027-03-01', targetShare: 0.005, basis: 'work-requests',
    policyUrl: 'https://example.com/policy', brownouts: [], action: 'deny', blockNewCallersFrom: null, quietDays: 30, gate: null, exemptions: [], declaredKey: null, ...overrides,
  };
}

describe('loadPolicyInputs', () => {
  let db: TempDatabase;
  beforeEach(() => {
    db = openTempDatabase();
    createTallyWriter(db.store.db)({
      cells: [
        // Served legacy work before 2027-02-01 by tok_old, on that day by tok_sameday; tok_refused only refused.
        trafficCell({ minute: noon('2027-01-20'), integration: 'tok_old' }),
        trafficCell({ minute: noon('2027-02-01'), integration: 'tok_sameday' }),
        trafficCell({ minute: noon('2027-01-20'), integration: 'tok_refused', outcome: 'blocked' }),
        trafficCell({ minute: noon('2027-01-20'), integration: 'tok_modern', era: 'modern', reason: 'modern-meta', version: '2026-07-28' }),
        // Recent legacy use by an identifiable caller, and by anonymous.
        trafficCell({ minute: noon('2027-03-10'), integration: 'tok_active' }),
        trafficCell({ minute: noon('2027-03-11'), integration: 'anonymous' }),
      ],
      integrations: [],
    });
  });
  afterEach(() => db.dispose());

  test('observe plans are left out; the version is the stored policy version', async () => {
    insertPlan(db.store.db, planInput({ action: 'observe' }), NOW);
    insertPlan(db.store.db, planInput({ name: 'warn', action: 'warn' }), NOW);
    const inputs = await loadPolicyInputs(db.backend, NOW, ['2026-07-28']);
    expect(inputs.plans.map((p) => p.name)).toEqual(['warn']);
    expect(inputs.version).toBe(getPolicyVersion(db.store.db));
    expect(inputs.supportedVersions).toEqual(['2026-07-28']);
  });

  test('known callers are those with served work in scope on days before the block-new date', async () => {
    insertPlan(db.store.db, planInput({ blockNewCallersFrom: '2027-02-01' }), NOW);
    expect([...(await loadPolicyInputs(db.backend, NOW, undefined)).plans[0]!.knownCallers].sort()).toEqual(['tok_old']);
  });

  test('the cut waits for an identifiable caller active in the quiet days, up to the backstop', async () => {
    const plan = insertPlan(db.store.db, planInput({ gate: { backstopDate: '2027-06-01', maxShare: null } }), NOW);
    expect((await loadPolicyInputs(db.backend, NOW, undefined)).plans[0]!.cutFrom).toBe(dayStart('2027-06-01'));
    updatePlan(db.store.db, plan.id, { exemptions: [{ integration: 'tok_active', until: '2027-12-31', note: null }] }, NOW);
    // Only anonymous is left in the quiet days: it holds nobody's cut.
    expect((await loadPolicyInputs(db.backend, NOW, undefined)).plans[0]!.cutFrom).toBe(dayStart('2027-03-01'));
  });

  test('without configured versions, the supported ones are those served in the last 30 days', async () => {
    expect((await loadPolicyInputs(db.backend, NOW, undefined)).supportedVersions).toEqual(['2025-06-18']);
  });

  test('without a gate the cut is the retire date', async () => {
    insertPlan(db.store.db, planInput(), NOW);
    expect((await loadPolicyInputs(db.backend, NOW, undefined)).plans[0]!.cutFrom).toBe(dayStart('2027-03-01'));
  });
});
