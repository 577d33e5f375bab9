import { describe, expect, test } from 'vitest';
import { BACKENDS, DAY, HOUR, NOON, useStores } from './backends.js';
import { planInput } from '../../support/plan-input.js';

describe.each(BACKENDS)('%s store: plan pauses', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('a pause comes back as stored, bumps the policy version, and is listed until it ends', async () => {
    const store = await open();
    const plan = await store.insertPlan(planInput(), NOON - DAY);
    const before = await store.getPolicyVersion();
    const [pause] = await store.pausePlans({ planIds: [plan.id], reason: 'partner caught in the brownout', endsAt: NOON + DAY, by: 'ops' }, NOON);
    expect(pause).toEqual({ id: pause!.id, planId: plan.id, reason: 'partner caught in the brownout', startedAt: NOON, endsAt: NOON + DAY, resumedAt: null, pausedBy: 'ops', resumedBy: null });
    expect(await store.getPolicyVersion()).toBe(before + 1);
    expect((await store.getPolicyVersionChange()).changedAt).toBe(NOON);
    expect(await store.listPlanPauses({ endedSince: NOON + DAY - 1 })).toEqual([pause]);
    // It ends at that same instant: from then on the plan enforces again.
    expect(await store.listPlanPauses({ endedSince: NOON + DAY + 1 })).toEqual([]);
    expect(await store.listPlanPauses()).toEqual([pause]);
  });

  test('pausing a paused plan ends the old pause at that moment and starts a new one', async () => {
    const store = await open();
    const plan = await store.insertPlan(planInput(), NOON - DAY);
    const [first] = await store.pausePlans({ planIds: [plan.id], reason: 'first', endsAt: NOON + DAY, by: 'a' }, NOON);
    const [second] = await store.pausePlans({ planIds: [plan.id], reason: 'longer', endsAt: NOON + 2 * DAY, by: 'b' }, NOON + HOUR);
    expect(await store.listPlanPauses({ planId: plan.id })).toEqual([
      { ...first, resumedAt: NOON + HOUR, resumedBy: 'b' },
      second,
    ]);
    expect((await store.listPlanPauses({ endedSince: NOON + 2 * HOUR })).map((p) => p.reason)).toEqual(['longer']);
  });

  test('resuming ends only the pauses in force of the plans named, or of all, and bumps the version only then', async () => {
    const store = await open();
    const one = await store.insertPlan(planInput({ name: 'one' }), NOON - DAY);
    const two = await store.insertPlan(planInput({ name: 'two' }), NOON - DAY);
    const three = await store.insertPlan(planInput({ name: 'three' }), NOON - DAY);
    await store.pausePlans({ planIds: [three.id], reason: 'short', endsAt: NOON + HOUR, by: 'ops' }, NOON - HOUR);
    await store.pausePlans({ planIds: [one.id, two.id], reason: 'drill', endsAt: NOON + DAY, by: 'ops' }, NOON);
    const version = await store.getPolicyVersion();

    const resumed = await store.resumePlans([two.id], 'pager', NOON + 2 * HOUR);
    expect(resumed.map((p) => [p.planId, p.resumedAt, p.resumedBy])).toEqual([[two.id, NOON + 2 * HOUR, 'pager']]);
    expect(await store.getPolicyVersion()).toBe(version + 1);

    // Three's pause ran out an hour before: there is nothing of it left to resume.
    const rest = await store.resumePlans('all', 'pager', NOON + 3 * HOUR);
    expect(rest.map((p) => p.planId)).toEqual([one.id]);
    expect(await store.resumePlans('all', 'pager', NOON + 4 * HOUR)).toEqual([]);
    expect(await store.getPolicyVersion()).toBe(version + 2);
    const three_ = (await store.listPlanPauses({ planId: three.id }))[0]!;
    expect([three_.resumedAt, three_.resumedBy]).toEqual([null, null]);
  });
});
