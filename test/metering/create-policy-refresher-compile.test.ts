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
    expect(policy.health()).toEqual({ version: 2, compiledAt: new Date(NOW).toISOString(), enforcingPlans: 1, lastError: null, supportedVersions: ['2026-07-28'], supportedVersionsFrom: 'config' });
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

  test('without a store nothing is enforced', async () => {
    const policy = createPolicyRefresher({ store: undefined, now: () => now, supportedVersions: undefined, logger: createLogger('silent') });
    await policy.start();
    expect(policy.current().enforcing).toBe(false);
    expect(policy.health()).toMatchObject({ version: 0, compiledAt: null, enforcingPlans: 0 });
    policy.stop();
  });
});
