import { describe, expect, test } from 'vitest';
import type { PlanInput } from '../../../server/store/records/plan-record.js';
import type { DeclaredPlanFields } from '../../../server/store/records/declared-plan.js';
import { planInput as storedPlan } from '../../support/plan-input.js';
import { BACKENDS, DAY, NOON, useStores } from './backends.js';

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return storedPlan({ announceDate: '2026-12-01', retireDate: '2027-06-01', policyUrl: null, action: 'observe', ...overrides });
}

function declared(overrides: Partial<DeclaredPlanFields> = {}): DeclaredPlanFields {
  const { declaredKey: _, ...fields } = planInput(overrides);
  return fields;
}

describe.each(BACKENDS)('%s store: plans', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('an inserted plan comes back whole, windows and exemptions in order, and the policy version moves', async () => {
    const store = await open();
    expect(await store.getPolicyVersionChange()).toEqual({ version: 0, changedAt: null });
    const input = planInput({
      brownouts: [
        { startsAt: NOON + 2 * DAY, endsAt: NOON + 2 * DAY + 3_600_000, note: 'second' },
        { startsAt: NOON + DAY, endsAt: NOON + DAY + 3_600_000, note: null },
      ],
      exemptions: [
        { integration: 'tok_b', until: '2027-09-01', note: null },
        { integration: 'tok_a', until: '2027-07-01', note: 'vendor' },
      ],
      gate: { backstopDate: '2027-12-01', maxShare: 0.01 },
      action: 'dryrun',
      targetShare: 0.125,
    });
    const plan = await store.insertPlan(input, NOON);
    expect(plan).toEqual({
      ...input,
      // Nothing said, no notices.
      noticeDays: [],
      id: plan.id,
      brownouts: [input.brownouts[1], input.brownouts[0]],
      exemptions: [input.exemptions[1], input.exemptions[0]],
      createdAt: NOON,
      updatedAt: NOON,
      archivedAt: null,
    });
    expect(await store.getPlan(plan.id)).toEqual(plan);
    expect(await store.getPlan(plan.id + 1000)).toBeUndefined();
    expect(await store.getPolicyVersionChange()).toEqual({ version: 1, changedAt: NOON });
  });

  test('updates change the given fields only, replace windows when given, and bump the version each time', async () => {
    const store = await open();
    const plan = await store.insertPlan(planInput({ brownouts: [{ startsAt: NOON, endsAt: NOON + 1, note: null }] }), NOON);
    const renamed = await store.updatePlan(plan.id, { name: 'Renamed', gate: { backstopDate: '2027-08-01', maxShare: null } }, NOON + 1);
    expect(renamed).toEqual({ ...plan, name: 'Renamed', gate: { backstopDate: '2027-08-01', maxShare: null }, updatedAt: NOON + 1 });
    const rewound = await store.updatePlan(plan.id, { brownouts: [], exemptions: [{ integration: 'tok_a', until: '2027-01-01', note: null }] }, NOON + 2);
    expect(rewound?.brownouts).toEqual([]);
    expect(rewound?.exemptions).toEqual([{ integration: 'tok_a', until: '2027-01-01', note: null }]);
    expect(await store.getPolicyVersion()).toBe(3);
    expect(await store.updatePlan(plan.id + 1000, { name: 'nobody' }, NOON + 3)).toBeUndefined();
    expect(await store.getPolicyVersionChange()).toEqual({ version: 3, changedAt: NOON + 2 });
  });

  test('archived plans are listed only when asked for; the list is in retire-date order', async () => {
    const store = await open();
    const late = await store.insertPlan(planInput({ name: 'late', retireDate: '2028-01-01' }), NOON);
    const early = await store.insertPlan(planInput({ name: 'early', retireDate: '2027-01-01' }), NOON);
    const gone = await store.insertPlan(planInput({ name: 'gone', retireDate: '2027-06-01' }), NOON);
    const archived = await store.updatePlan(gone.id, { archived: true }, NOON + 1);
    expect(archived?.archivedAt).toBe(NOON + 1);
    expect((await store.listPlans()).map((p) => p.name)).toEqual(['early', 'late']);
    expect((await store.listPlans({ includeArchived: true })).map((p) => p.id)).toEqual([early.id, gone.id, late.id]);
    const restored = await store.updatePlan(gone.id, { archived: false }, NOON + 2);
    expect(restored?.archivedAt).toBeNull();
    expect(await store.getPolicyVersion()).toBe(5);
  });

  test('declared plans sync: inserted, unchanged, updated, archived and restored; API plans untouched', async () => {
    const store = await open();
    const api = await store.insertPlan(planInput({ name: 'api' }), NOON);
    expect(await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one' }) }, { key: 'two', plan: declared({ name: 'two' }) }], NOON + 1)).toEqual({
      inserted: ['one', 'two'],
      updated: [],
      archived: [],
      restored: [],
      unchanged: [],
    });
    const afterInsert = await store.getPolicyVersion();
    expect(afterInsert).toBe(3);
    expect(await store.syncDeclaredPlans([{ key: 'two', plan: declared({ name: 'two' }) }, { key: 'one', plan: declared({ name: 'one' }) }], NOON + 2)).toEqual({
      inserted: [],
      updated: [],
      archived: [],
      restored: [],
      unchanged: ['two', 'one'],
    });
    expect(await store.getPolicyVersion()).toBe(afterInsert);
    expect(await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one', action: 'warn' }) }], NOON + 3)).toEqual({
      inserted: [],
      updated: ['one'],
      archived: ['two'],
      restored: [],
      unchanged: [],
    });
    expect(await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one', action: 'warn' }) }, { key: 'two', plan: declared({ name: 'two' }) }], NOON + 4)).toEqual({
      inserted: [],
      updated: [],
      archived: [],
      restored: ['two'],
      unchanged: ['one'],
    });
    const plans = await store.listPlans({ includeArchived: true });
    expect(plans.map((p) => [p.name, p.declaredKey, p.action, p.archivedAt])).toEqual([
      ['api', null, 'observe', null],
      ['one', 'one', 'warn', null],
      ['two', 'two', 'observe', null],
    ]);
    expect(await store.getPlan(api.id)).toEqual(api);
    expect(await store.getPolicyVersion()).toBe(afterInsert + 3);
  });
});
