import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { getPlan } from '../../server/store/sqlite/get-plan.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import { listPlans } from '../../server/store/sqlite/list-plans.js';
import { getPolicyVersion } from '../../server/store/sqlite/policy-version.js';
import type { DeclaredPlan, DeclaredPlanFields } from '../../server/store/records/declared-plan.js';
import { syncDeclaredPlans } from '../../server/store/sqlite/sync-declared-plans.js';
import { openTempDatabase, type TempDatabase } from './temp-database.js';

const T0 = Date.UTC(2026, 11, 1);
const LATER = T0 + 86_400_000;

function fields(overrides: Partial<DeclaredPlanFields> = {}): DeclaredPlanFields {
  return {
    name: 'Retire legacy',
    scopeKind: 'era',
    scopeValue: 'legacy',
    announceDate: '2027-01-01',
    retireDate: '2027-07-01',
    targetShare: 0.005,
    basis: 'work-requests',
    policyUrl: 'https://example.test/policy',
    brownouts: [
      { startsAt: Date.UTC(2027, 2, 1, 9), endsAt: Date.UTC(2027, 2, 1, 10), note: null },
      { startsAt: Date.UTC(2027, 3, 1, 9), endsAt: Date.UTC(2027, 3, 1, 10), note: 'second' },
    ],
    action: 'warn',
    blockNewCallersFrom: '2027-03-01',
    quietDays: 30,
    gate: { backstopDate: '2027-12-31', maxShare: 0.001 },
    exemptions: [
      { integration: 'tok_b', until: '2027-09-01', note: null },
      { integration: 'tok_a', until: '2027-08-01', note: 'contract' },
    ],
    ...overrides,
  };
}

const declared = (key: string, overrides: Partial<DeclaredPlanFields> = {}): DeclaredPlan => ({ key, plan: fields(overrides) });

describe('syncing declared plans into the store', () => {
  let temp: TempDatabase;
  beforeEach(() => {
    temp = openTempDatabase();
  });
  afterEach(() => temp.dispose());
  const db = () => temp.store.db;
  const byKey = (key: string) => listPlans(db(), { includeArchived: true }).find((p) => p.declaredKey === key);

  test('inserts a new key with every field, once per plan in the policy version', () => {
    const result = syncDeclaredPlans(db(), [declared('legacy-2027'), declared('sse-2027', { scopeKind: 'transport', scopeValue: 'http+sse' })], T0);
    expect(result).toMatchObject({ inserted: ['legacy-2027', 'sse-2027'], updated: [], archived: [], restored: [] });
    expect(getPolicyVersion(db())).toBe(2);
    const stored = byKey('legacy-2027')!;
    expect(stored).toMatchObject({ name: 'Retire legacy', action: 'warn', blockNewCallersFrom: '2027-03-01', gate: { backstopDate: '2027-12-31', maxShare: 0.001 }, createdAt: T0, archivedAt: null });
    expect(stored.exemptions.map((e) => e.integration)).toEqual(['tok_a', 'tok_b']);
    expect(stored.brownouts).toHaveLength(2);
  });

  test('an unchanged file writes nothing: no update time, no policy version', () => {
    syncDeclaredPlans(db(), [declared('legacy-2027')], T0);
    const version = getPolicyVersion(db());
    const result = syncDeclaredPlans(db(), [declared('legacy-2027')], LATER);
    expect(result).toMatchObject({ inserted: [], updated: [], archived: [], restored: [], unchanged: ['legacy-2027'] });
    expect(getPolicyVersion(db())).toBe(version);
    expect(byKey('legacy-2027')!.updatedAt).toBe(T0);
  });

  test('exemptions and brownouts listed in another order are not a change', () => {
    syncDeclaredPlans(db(), [declared('legacy-2027')], T0);
    const version = getPolicyVersion(db());
    const shuffled = fields();
    const result = syncDeclaredPlans(db(), [{ key: 'legacy-2027', plan: { ...shuffled, exemptions: [...shuffled.exemptions].reverse(), brownouts: [...shuffled.brownouts].reverse() } }], LATER);
    expect(result.unchanged).toEqual(['legacy-2027']);
    expect(getPolicyVersion(db())).toBe(version);
  });

  test.each<[string, Partial<DeclaredPlanFields>]>([
    ['name', { name: 'Retire legacy, for real' }],
    ['retire date', { retireDate: '2027-08-01' }],
    ['action', { action: 'deny' }],
    ['quiet days', { quietDays: 14 }],
    ['gate share', { gate: { backstopDate: '2027-12-31', maxShare: null } }],
    ['gate removed', { gate: null }],
    ['block-new date removed', { blockNewCallersFrom: null }],
    ['an exemption extended', { exemptions: [{ integration: 'tok_a', until: '2027-08-02', note: 'contract' }, { integration: 'tok_b', until: '2027-09-01', note: null }] }],
    ['an exemption note', { exemptions: [{ integration: 'tok_a', until: '2027-08-01', note: 'renewed' }, { integration: 'tok_b', until: '2027-09-01', note: null }] }],
    ['a brownout moved', { brownouts: [{ startsAt: Date.UTC(2027, 2, 2, 9), endsAt: Date.UTC(2027, 2, 2, 10), note: null }] }],
    ['target share', { targetShare: 0.01 }],
    ['basis', { basis: 'all-requests' }],
  ])('a changed %s updates the plan in place and moves the policy version by one', (_what, change) => {
    syncDeclaredPlans(db(), [declared('legacy-2027'), declared('other')], T0);
    const before = byKey('legacy-2027')!;
    const version = getPolicyVersion(db());
    const result = syncDeclaredPlans(db(), [declared('legacy-2027', change), declared('other')], LATER);
    expect(result).toMatchObject({ updated: ['legacy-2027'], unchanged: ['other'] });
    expect(getPolicyVersion(db())).toBe(version + 1);
    const after = byKey('legacy-2027')!;
    expect(after.id).toBe(before.id);
    expect(after.updatedAt).toBe(LATER);
    expect(after).toMatchObject(change.brownouts === undefined && change.exemptions === undefined ? change : {});
    if (change.exemptions !== undefined) expect(after.exemptions).toEqual(change.exemptions);
    if (change.brownouts !== undefined) expect(after.brownouts).toEqual(change.brownouts);
  });

  test('a key gone from the file is archived, not deleted; back in the file it is restored, with its changes', () => {
    syncDeclaredPlans(db(), [declared('legacy-2027'), declared('sse-2027')], T0);
    const id = byKey('sse-2027')!.id;
    const version = getPolicyVersion(db());

    const removed = syncDeclaredPlans(db(), [declared('legacy-2027')], LATER);
    expect(removed).toMatchObject({ archived: ['sse-2027'], unchanged: ['legacy-2027'] });
    expect(getPlan(db(), id)!.archivedAt).toBe(LATER);
    expect(getPolicyVersion(db())).toBe(version + 1);

    // Still gone: an archived plan is not archived again.
    expect(syncDeclaredPlans(db(), [declared('legacy-2027')], LATER + 1).archived).toEqual([]);
    expect(getPolicyVersion(db())).toBe(version + 1);

    const back = syncDeclaredPlans(db(), [declared('legacy-2027'), declared('sse-2027')], LATER + 2);
    expect(back).toMatchObject({ restored: ['sse-2027'], updated: [] });
    expect(getPlan(db(), id)!.archivedAt).toBeNull();
    expect(getPolicyVersion(db())).toBe(version + 2);

    syncDeclaredPlans(db(), [declared('legacy-2027')], LATER + 3);
    const changedBack = syncDeclaredPlans(db(), [declared('legacy-2027'), declared('sse-2027', { action: 'deny' })], LATER + 4);
    expect(changedBack).toMatchObject({ restored: ['sse-2027'], updated: ['sse-2027'] });
    expect(getPlan(db(), id)).toMatchObject({ archivedAt: null, action: 'deny' });
    expect(getPolicyVersion(db())).toBe(version + 4);
  });

  test('an empty list archives every declared plan and leaves plans made through the API alone', () => {
    const own = insertPlan(db(), { ...fields({ name: 'Made in the dashboard' }), declaredKey: null }, T0);
    syncDeclaredPlans(db(), [declared('legacy-2027')], T0);
    const result = syncDeclaredPlans(db(), [], LATER);
    expect(result.archived).toEqual(['legacy-2027']);
    expect(getPlan(db(), own.id)).toEqual(own);
  });

  test('all or nothing: a declaration the store refuses leaves every plan and the policy version as they were', () => {
    syncDeclaredPlans(db(), [declared('legacy-2027'), declared('sse-2027')], T0);
    const before = listPlans(db(), { includeArchived: true });
    const version = getPolicyVersion(db());
    // A name is NOT NULL in the schema; the first plan's change is written before the store refuses it.
    const broken = { key: 'broken', plan: { ...fields(), name: null } } as unknown as DeclaredPlan;
    expect(() => syncDeclaredPlans(db(), [declared('legacy-2027', { action: 'deny' }), broken], LATER)).toThrow();
    expect(listPlans(db(), { includeArchived: true })).toEqual(before);
    expect(getPolicyVersion(db())).toBe(version);
  });
});
