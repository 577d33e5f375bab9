import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { dayStart } from '../../server/analysis/plan-clock.js';
import { createPolicyRefresher, type PolicyRefresher } from '../../server/metering/create-policy-refresher.js';
import { pino } from 'pino';
import { createLogger } from '../../server/lib/create-logger.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../server/store/records/plan-record.js';
import { updatePlan } from '../../server/store/sqlite/update-plan.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const START = dayStart('2027-03-12') + 12 * 3_600_000;
const LEGACY = { era: 'legacy', transport: 'streamable-http', version: '2025-06-18' } as const;

const planInput = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  name: 'Retire legacy', scopeKind: 'era', scopeValue: 'legacy', announceDate: '2027-01-01', retireDate: '2027-03-01', targetShare: 0.005, basis: 'work-requests',
  policyUrl: 'https://example.com/policy', brownouts: [], action: 'warn', blockNewCallersFrom: null, quietDays: 30, gate: null, exemptions: [], declaredKey: null, ...overrides,
});

describe('createPolicyRefresher', () => {
  let db: TempDatabase;
  let clock: number;
  let refresher: PolicyRefresher;
  beforeEach(() => {
    vi.useFakeTimers();
    db = openTempDatabase();
    clock = START;
    refresher = createPolicyRefresher({ store: db.backend, now: () => clock, supportedVersions: ['2026-07-28'], logger: createLogger('silent') });
  });
  afterEach(() => {
    refresher.stop();
    vi.useRealTimers();
    db.dispose();
  });

  // Each check the timer fires runs to its end before the next: the SQLite store answers at once.
  const advance = async (ms: number) => {
    clock += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  test('a plan written to the store by anyone is in force at the next check', async () => {
    await refresher.start();
    expect(refresher.current().enforcing).toBe(false);
    const plan = insertPlan(db.store.db, planInput(), clock);
    await advance(1_000);
    expect(refresher.current().decide(LEGACY, 'anonymous', clock).headers).toContain('Deprecation');
    updatePlan(db.store.db, plan.id, { action: 'deny' }, clock);
    await advance(1_000);
    expect(refresher.current().decide(LEGACY, 'anonymous', clock).cause).toBe('cut');
    expect(refresher.health()).toMatchObject({ enforcingPlans: 1, lastError: null });
  });

  test('with no change the table is still rebuilt at least every 5 s, so gates follow the traffic', async () => {
    await refresher.start();
    const first = refresher.current();
    await advance(4_000);
    expect(refresher.current()).toBe(first);
    await advance(1_000);
    expect(refresher.current()).not.toBe(first);
    expect(refresher.current().compiledAt).toBe(clock);
  });

  test('a rebuild that fails keeps the table in force and reports why', async () => {
    // The operator's log has the store's words.
    const logged: string[] = [];
    refresher = createPolicyRefresher({ store: db.backend, now: () => clock, supportedVersions: ['2026-07-28'], logger: pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) }) });
    insertPlan(db.store.db, planInput({ action: 'deny' }), clock);
    await refresher.start();
    const inForce = refresher.current();
    db.store.sqlite.exec('DROP TABLE plan_exemptions');
    await refresher.refresh();
    expect(refresher.current()).toBe(inForce);
    expect(refresher.current().decide(LEGACY, 'anonymous', clock).cause).toBe('cut');
    // Said on the unauthenticated /healthz without the store's own words; the log has them.
    expect(refresher.health().lastError).toMatch(/^the retirement policy could not be rebuilt from the store at \S+Z; the one in force stays \(the reason is in the log\)$/);
    expect(refresher.health().lastError).not.toMatch(/plan_exemptions/);
    expect(logged.join('')).toMatch(/plan_exemptions/);
  });
});
