import { describe, expect, test } from 'vitest';
import type { DeclaredPlanFields } from '../../../server/store/records/declared-plan.js';
import { planInput } from '../../support/plan-input.js';
import { BACKENDS, DAY, HOUR, NOON, sighting, useStores, writeCells, cell } from './backends.js';

function declared(overrides: Partial<DeclaredPlanFields> = {}): DeclaredPlanFields {
  const { declaredKey: _, ...fields } = planInput(overrides);
  return fields;
}

describe.each(BACKENDS)('%s store: the audit trail', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('every change to a plan leaves one record with who, when, and the fields before and after', async () => {
    const store = await open();
    const plan = await store.insertPlan(planInput({ name: 'Retire legacy' }), NOON, 'token:alice');
    const exempted = await store.updatePlan(plan.id, { exemptions: [{ integration: 'tok_a', until: '2027-01-31', note: 'migrating' }] }, NOON + 1, 'token:bob');
    // A change that changes nothing is not a change.
    await store.updatePlan(plan.id, { name: 'Retire legacy' }, NOON + 2, 'token:bob');
    await store.updatePlan(plan.id, { archived: true }, NOON + 3, 'admin token');
    expect(await store.updatePlan(9999, { name: 'x' }, NOON + 4, 'admin token')).toBeUndefined();

    const events = await store.listAuditEvents({ limit: 10 });
    expect(events.map((e) => [e.at, e.actor, e.action, e.subject])).toEqual([
      [NOON + 3, 'admin token', 'plan.archive', `plan:${plan.id}`],
      [NOON + 1, 'token:bob', 'plan.update', `plan:${plan.id}`],
      [NOON, 'token:alice', 'plan.create', `plan:${plan.id}`],
    ]);
    const [archive, update, create] = events;
    expect(create!.before).toBeNull();
    expect(create!.after).toEqual(JSON.parse(JSON.stringify(plan)));
    expect(update!.before).toEqual({ exemptions: [] });
    expect(update!.after).toEqual({ exemptions: exempted!.exemptions });
    expect(archive!.before).toEqual({ archivedAt: null });
    expect(archive!.after).toEqual({ archivedAt: NOON + 3 });
  });

  test('the config file\'s sync is recorded as the config file: made, changed, archived and restored', async () => {
    const store = await open();
    await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one' }) }], NOON);
    await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one' }) }], NOON + 1);
    await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one', action: 'warn' }) }], NOON + 2);
    await store.syncDeclaredPlans([], NOON + 3);
    await store.syncDeclaredPlans([{ key: 'one', plan: declared({ name: 'one', action: 'warn' }) }], NOON + 4);
    const events = await store.listAuditEvents({ limit: 10 });
    expect(events.map((e) => [e.at, e.actor, e.action, e.before, e.after === null ? null : Object.keys(e.after).length > 3 ? 'whole plan' : e.after])).toEqual([
      [NOON + 4, 'config file', 'plan.restore', { archivedAt: NOON + 3 }, { archivedAt: null }],
      [NOON + 3, 'config file', 'plan.archive', { archivedAt: null }, { archivedAt: NOON + 3 }],
      [NOON + 2, 'config file', 'plan.update', { action: 'deny' }, { action: 'warn' }],
      [NOON, 'config file', 'plan.create', null, 'whole plan'],
    ]);
  });

  test('a pause begun, replaced and resumed: one record each, the replacement ending the old one', async () => {
    const store = await open();
    const plan = await store.insertPlan(planInput(), NOON);
    const [first] = await store.pausePlans({ planIds: [plan.id], reason: 'drill', endsAt: NOON + DAY, by: 'token:alice' }, NOON + HOUR);
    const [second] = await store.pausePlans({ planIds: [plan.id], reason: 'longer', endsAt: NOON + 2 * DAY, by: 'token:bob' }, NOON + 2 * HOUR);
    await store.resumePlans([plan.id], 'command line (ops)', NOON + 3 * HOUR);
    expect(await store.resumePlans('all', 'command line (ops)', NOON + 4 * HOUR)).toEqual([]);
    const events = (await store.listAuditEvents({ limit: 10 })).filter((e) => e.action.startsWith('pause.'));
    expect(events.map((e) => [e.at, e.actor, e.action, e.subject, e.before, e.after])).toEqual([
      [NOON + 3 * HOUR, 'command line (ops)', 'pause.end', `pause:${second!.id}`, { resumedAt: null, resumedBy: null }, { resumedAt: NOON + 3 * HOUR, resumedBy: 'command line (ops)' }],
      [NOON + 2 * HOUR, 'token:bob', 'pause.start', `pause:${second!.id}`, null, JSON.parse(JSON.stringify(second))],
      [NOON + 2 * HOUR, 'token:bob', 'pause.end', `pause:${first!.id}`, { resumedAt: null, resumedBy: null }, { resumedAt: NOON + 2 * HOUR, resumedBy: 'token:bob' }],
      [NOON + HOUR, 'token:alice', 'pause.start', `pause:${first!.id}`, null, JSON.parse(JSON.stringify(first))],
    ]);
  });

  test('a bridge revocation is recorded when it is new and when it lasts longer, not when it changes nothing', async () => {
    const store = await open();
    await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + HOUR, reason: 'laptop lost' }, NOON, 'token:alice');
    await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + HOUR, reason: 'again' }, NOON + 1, 'token:alice');
    await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + DAY, reason: null }, NOON + 2, 'token:bob');
    const events = await store.listAuditEvents({ subject: 'bridge-session:abc', limit: 10 });
    expect(events.map((e) => [e.actor, e.action, e.before, e.after])).toEqual([
      ['token:bob', 'bridge.revoke', { expiresAt: NOON + HOUR }, { expiresAt: NOON + DAY }],
      ['token:alice', 'bridge.revoke', null, { sessionId: 'abc', revokedAt: NOON, expiresAt: NOON + HOUR, reason: 'laptop lost' }],
    ]);
  });

  test('what operators know about a caller is recorded when it changes; a caller never seen leaves nothing', async () => {
    const store = await open();
    await writeCells(store, [cell({ integration: 'tok_a' })], [sighting({ key: 'tok_a' })]);
    await store.updateIntegration('tok_a', { owner: 'Payments', contact: 'pay@example.com' }, NOON, 'token:alice');
    await store.updateIntegration('tok_a', { owner: 'Payments' }, NOON + 1, 'token:alice');
    await store.updateIntegration('nobody', { owner: 'x' }, NOON + 2, 'token:alice');
    const events = await store.listAuditEvents({ limit: 10 });
    expect(events.map((e) => [e.actor, e.action, e.subject, e.before, e.after])).toEqual([
      ['token:alice', 'integration.update', 'integration:tok_a', { owner: null, contact: null }, { owner: 'Payments', contact: 'pay@example.com' }],
    ]);
  });

  test('pages go back from the newest by id, and a subject narrows them', async () => {
    const store = await open();
    const plans = [];
    for (let i = 0; i < 5; i += 1) plans.push(await store.insertPlan(planInput({ name: `p${i}` }), NOON + i, 'ops'));
    const first = await store.listAuditEvents({ limit: 2 });
    expect(first.map((e) => e.subject)).toEqual([`plan:${plans[4]!.id}`, `plan:${plans[3]!.id}`]);
    const next = await store.listAuditEvents({ limit: 2, before: first[1]!.id });
    expect(next.map((e) => e.subject)).toEqual([`plan:${plans[2]!.id}`, `plan:${plans[1]!.id}`]);
    expect((await store.listAuditEvents({ subject: `plan:${plans[0]!.id}`, limit: 10 })).map((e) => e.action)).toEqual(['plan.create']);
  });
});
