import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createPolicyRefresher } from '../../server/metering/create-policy-refresher.js';
import { createLogger } from '../../server/lib/create-logger.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import { updatePlan } from '../../server/store/sqlite/update-plan.js';
import { planInput } from '../support/plan-input.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const NOW = Date.UTC(2027, 0, 15, 12);

const plan = planInput;

const legacy = { era: 'legacy', transport: 'streamable-http', version: '2025-11-25' } as const;

describe('the policy refresher compiling the stored plans', () => {
  let temp: TempDatabase;
  let now = NOW;
  beforeEach(() => {
    temp = openTempDatabase();
    now = NOW;
  });
  afterEach(() => temp.dispose());

  const refresher = () => createPolicyRefresher({ store: temp.backend, now: () => now, supportedVersions: ['2026-07-28'], logger: createLogger('silent'), checkEveryMs: 60_000 });

  test('compiles the stored plans with the stored version, and only plans that act', async () => {
    insertPlan(temp.store.db, plan({ action: 'observe', name: 'watch only' }), NOW);
    insertPlan(temp.store.db, plan(), NOW);
    const policy = refresher();
    await policy.refresh();
    expect(policy.current().version).toBe(2);
    expect(policy.current().plans.map((p) => p.name)).toEqual(['Retire legacy']);
    expect(policy.health()).toEqual({ version: 2, compiledAt: new Date(NOW).toISOString(), enforcingPlans: 1, pausedPlans: [], lastError: null, supportedVersions: ['2026-07-28'], supportedVersionsFrom: 'config' });
  });

  test('a change to a plan is in force after the next refresh', async () => {
    const { id } = insertPlan(temp.store.db, plan(), NOW);
    const policy = refresher();
    await policy.refresh();
    expect(policy.current().decide(legacy, 'anonymous', NOW).refusedBy).toBeNull();
    updatePlan(temp.store.db, id, { retireDate: '2027-01-01' }, NOW);
    await policy.refresh();
    expect(policy.current().decide(legacy, 'anonymous', NOW).cause).toBe('cut');
    expect(policy.current().version).toBe(2);
  });

  test('a stored pause lets what the plan would refuse through until it ends, resumed or run out', async () => {
    const { id } = insertPlan(temp.store.db, plan({ retireDate: '2027-01-01' }), NOW);
    const other = insertPlan(temp.store.db, plan({ name: 'Retire HTTP+SSE', scopeKind: 'transport', scopeValue: 'http+sse', retireDate: '2027-01-01' }), NOW);
    const policy = refresher();
    await temp.backend.pausePlans({ planIds: [id], reason: 'drill', endsAt: NOW + 3_600_000, by: 'ops' }, NOW);
    await policy.refresh();
    expect(policy.current().decide(legacy, 'anonymous', NOW)).toMatchObject({ refusedBy: null, wouldBlock: true });
    expect(policy.health().pausedPlans).toEqual([{ id, name: 'Retire legacy', until: new Date(NOW + 3_600_000).toISOString() }]);
    // Its end needs no rebuild: the table compiled during the pause refuses again from that instant.
    now = NOW + 3_600_000;
    expect(policy.current().decide(legacy, 'anonymous', now).cause).toBe('cut');
    expect(policy.health().pausedPlans).toEqual([]);

    now = NOW + 2 * 3_600_000;
    await temp.backend.pausePlans({ planIds: [id, other.id], reason: 'again', endsAt: now + 3_600_000, by: 'ops' }, now);
    await policy.refresh();
    expect(policy.current().decide(legacy, 'anonymous', now).refusedBy).toBeNull();
    now += 1;
    await temp.backend.resumePlans([id], 'ops', now);
    await policy.refresh();
    expect(policy.current().decide(legacy, 'anonymous', now).cause).toBe('cut');
    expect(policy.health().pausedPlans.map((p) => p.id)).toEqual([other.id]);
  });

  test('without a store nothing is enforced', async () => {
    const policy = createPolicyRefresher({ store: undefined, now: () => now, supportedVersions: undefined, logger: createLogger('silent') });
    await policy.start();
    expect(policy.current().enforcing).toBe(false);
    expect(policy.health()).toMatchObject({ version: 0, compiledAt: null, enforcingPlans: 0 });
    policy.stop();
  });
});
