import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDryRun, formatDryRun } from '../../../server/cli/commands/dry-run.js';
import { insertPlan } from '../../../server/store/sqlite/insert-plan.js';
import type { PlanInput } from '../../../server/store/records/plan-record.js';
import { updateIntegration } from '../../../server/store/sqlite/update-integration.js';
import { createTallyWriter } from '../../../server/store/sqlite/write-tally-batch.js';
import { spawnCli } from '../../support/spawn-cli.js';
import { openTempDatabase, trafficCell, type TempDatabase } from '../../store/temp-database.js';

const DAY = 86_400_000;
// The spawned command reads the real clock: the cut asked about is a month ago.
const CUT_AT = Math.floor(Date.now() / DAY) * DAY - 30 * DAY;
const CUT = new Date(CUT_AT).toISOString().slice(0, 10);
const dayBefore = (days: number) => new Date(CUT_AT - days * DAY).toISOString().slice(0, 10);

const PLAN: PlanInput = {
  name: 'Retire legacy',
  scopeKind: 'era',
  scopeValue: 'legacy',
  announceDate: dayBefore(100),
  retireDate: dayBefore(-90),
  targetShare: 0.005,
  basis: 'work-requests',
  policyUrl: null,
  brownouts: [],
  action: 'observe',
  blockNewCallersFrom: null,
  quietDays: 10,
  gate: null,
  exemptions: [{ integration: 'tok_b', until: dayBefore(-14), note: null }],
  declaredKey: null,
};

describe('mcp-sunset dry-run', () => {
  let db: TempDatabase;
  let planId: number;
  beforeAll(() => {
    db = openTempDatabase();
    const sighting = (key: string) => ({ key, source: 'bearer-fingerprint', firstSeen: CUT_AT - 20 * DAY, lastSeen: CUT_AT - DAY, lastLegacySeen: CUT_AT - DAY, clientInfo: undefined });
    createTallyWriter(db.store.db)({
      cells: [
        trafficCell({ minute: CUT_AT - 2 * DAY, integration: 'tok_a', count: 50 }),
        trafficCell({ minute: CUT_AT - 9 * DAY, integration: 'tok_a', version: '2025-03-26', count: 30 }),
        trafficCell({ minute: CUT_AT - 3 * DAY, integration: 'tok_b', count: 20 }),
        trafficCell({ minute: CUT_AT - 3 * DAY, integration: 'tok_m', era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 100 }),
        // Before the window, and on the cut day itself: neither is read.
        trafficCell({ minute: CUT_AT - 11 * DAY, integration: 'tok_a', count: 1000 }),
        trafficCell({ minute: CUT_AT + 60_000, integration: 'tok_a', count: 1000 }),
      ],
      integrations: [sighting('tok_a'), sighting('tok_b')],
    });
    updateIntegration(db.store.db, 'tok_a', { displayName: 'Acme sync', owner: 'Acme', contact: 'ops@acme.test' }, CUT_AT);
    planId = insertPlan(db.store.db, PLAN, CUT_AT).id;
  });
  afterAll(() => db?.dispose());

  test('the table names the date asked about against the retire date, the refused share, and each caller', async () => {
    const text = formatDryRun(await buildDryRun(db.backend, planId, CUT, Date.now()));
    expect(text).toContain(`plan ${planId} "Retire legacy", if the cut came on ${CUT} (its retire date is ${dayBefore(-90)})`);
    expect(text).toContain('(10 days)');
    expect(text).toContain('would refuse 1 of 2 callers in scope: 80 of 200 served work requests (40.00%)');
    expect(text).toContain('1 saved by an exemption');
    expect(text).toMatch(new RegExp(String.raw`tok_a\s+Acme sync\s+Acme\s+ops@acme\.test\s+8\s+—\s+${dayBefore(2)}\s+2025-03-26 2025-06-18\s+streamable-http\s+legacy-only\s+—\s+refused`));
    expect(text).toMatch(new RegExp(String.raw`tok_b\s+2\s+—\s+${dayBefore(3)}\s+2025-06-18\s+streamable-http\s+legacy-only\s+—\s+exempt until ${dayBefore(-14)}`));
    expect(text).not.toContain('would-block');
  });

  test('an unknown plan is an error naming it', async () => {
    await expect(buildDryRun(db.backend, 999, undefined, CUT_AT)).rejects.toThrow('no plan 999');
  });

  test('prints the API\'s JSON with --json from the real command', async () => {
    const run = spawnCli(['dry-run', '--plan', String(planId), '--at', CUT, '--db', db.path, '--json']);
    expect({ code: await run.exited, stderr: run.stderr() }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(run.stdout());
    expect(report).toMatchObject({ planId, at: CUT, window: { from: new Date(CUT_AT - 10 * DAY).toISOString(), to: new Date(CUT_AT).toISOString(), days: 10 }, live: null });
    expect(report.totals).toEqual({ callers: 2, refusedCallers: 1, savedCallers: 1, refusedRequests: 80, servedRequests: 200, refusedPeople: 0 });
    expect(report.callers.map((c: { integration: string; requests: number }) => [c.integration, c.requests])).toEqual([['tok_a', 80], ['tok_b', 20]]);
  }, 30_000);

  test.each([
    [['--plan', 'PLAN', '--at', '2027-02-30'], /--at.*YYYY-MM-DD/],
    [['--plan', '999'], /no plan 999/],
    [['--plan', 'first'], /--plan.*positive integer/],
    [['--at', '2027-03-01'], /required option '--plan/],
  ])('bad input %j exits non-zero with one clear line', async (args, pattern) => {
    const run = spawnCli(['dry-run', ...args.map((arg) => (arg === 'PLAN' ? String(planId) : arg)), '--db', db.path]);
    expect(await run.exited).not.toBe(0);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  }, 30_000);
});
