import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DryRunCallerJson, DryRunJson } from '../../../server/api/api-json.js';
import { judgeDryRun, parseFailOn } from '../../../server/cli/commands/dry-run-gate.js';
import type { PlanInput } from '../../../server/store/records/plan-record.js';
import { insertPlan } from '../../../server/store/sqlite/insert-plan.js';
import type { Db } from '../../../server/store/sqlite/open-database.js';
import { createTallyWriter } from '../../../server/store/sqlite/write-tally-batch.js';
import { planInput } from '../../support/plan-input.js';
import { spawnCli } from '../../support/spawn-cli.js';
import { startTestService, type TestService } from '../../support/start-test-service.js';
import { trafficCell } from '../../store/temp-database.js';

const DAY = 86_400_000;
// The spawned command reads the real clock: the cut asked about is a week ago, inside the counts' window.
const CUT_AT = Math.floor(Date.now() / DAY) * DAY - 7 * DAY;
const CUT = new Date(CUT_AT).toISOString().slice(0, 10);
const dayBefore = (days: number) => new Date(CUT_AT - days * DAY).toISOString().slice(0, 10);
const TOKEN = 'gate-admin-token-0123456789';

const plan = (name: string, exemptions: PlanInput['exemptions']): PlanInput =>
  planInput({ name, announceDate: dayBefore(100), retireDate: dayBefore(-90), policyUrl: null, action: 'observe', quietDays: 10, exemptions });

/** Legacy work from a named caller (80) and anonymous traffic (20), beside modern work (100). */
function seed(db: Db): { both: number; anonymousOnly: number } {
  const sighting = (key: string) => ({ key, source: 'bearer-fingerprint', firstSeen: CUT_AT - 20 * DAY, lastSeen: CUT_AT - DAY, lastLegacySeen: CUT_AT - DAY, clientInfo: undefined });
  createTallyWriter(db)({
    cells: [
      trafficCell({ minute: CUT_AT - 2 * DAY, integration: 'tok_a', count: 80 }),
      trafficCell({ minute: CUT_AT - 3 * DAY, integration: 'anonymous', count: 20 }),
      trafficCell({ minute: CUT_AT - 3 * DAY, integration: 'tok_m', era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 100 }),
    ],
    integrations: [sighting('tok_a'), sighting('tok_m')],
  });
  return {
    both: insertPlan(db, plan('Retire legacy', []), CUT_AT).id,
    // tok_a exempt past the cut: only anonymous traffic would be refused.
    anonymousOnly: insertPlan(db, plan('Retire legacy, tok_a exempt', [{ integration: 'tok_a', until: dayBefore(-30), note: 'migrating' }]), CUT_AT).id,
  };
}

function caller(integration: string, overrides: Partial<DryRunCallerJson> = {}): DryRunCallerJson {
  return { integration, displayName: null, owner: null, contact: null, identifiable: integration !== 'anonymous', requests: 10, requestsPerDay: 1, lastSeen: null, versions: [], transports: [], migration: 'legacy-only', told: { notices: 0, lastNoticeAt: null, lastContactAt: null }, savedBy: null, people: null, ...overrides };
}

function report(callers: DryRunCallerJson[], refusedShare: number | null): DryRunJson {
  const refused = callers.filter((c) => c.savedBy === null);
  return {
    planId: 1,
    at: CUT,
    window: { from: '', to: '', days: 10 },
    refusedShare,
    totals: { callers: callers.length, refusedCallers: refused.length, savedCallers: callers.length - refused.length, refusedRequests: refused.reduce((s, c) => s + c.requests, 0), servedRequests: 100, refusedPeople: 0 },
    callers,
    live: null,
  };
}

describe('the dry run\'s gate', () => {
  test.each([
    ['identifiable', { kind: 'identifiable' }],
    ['any', { kind: 'any' }],
    ['share:0.05', { kind: 'share', fraction: 0.05 }],
    ['share:0', { kind: 'share', fraction: 0 }],
    ['share:1', { kind: 'share', fraction: 1 }],
    ['share:.5', { kind: 'share', fraction: 0.5 }],
  ])('reads %s', (text, parsed) => {
    expect(parseFailOn(text)).toEqual(parsed);
  });

  test.each(['', 'all', 'share', 'share:', 'share:1.5', 'share:-0.1', 'share:5%', 'share:0.1x', 'Identifiable', 'share:2'])('refuses %j', (text) => {
    expect(parseFailOn(text)).toBeUndefined();
  });

  test('identifiable fails on a refused caller that can be told apart, not on anonymous traffic or an exempt caller', () => {
    const exempt = caller('tok_b', { savedBy: { until: '2027-01-01', note: null } });
    expect(judgeDryRun(report([caller('anonymous'), exempt], 0.1), { kind: 'identifiable' })).toMatchObject({ failed: false, callers: [] });
    const verdict = judgeDryRun(report([caller('tok_a'), caller('anonymous'), exempt], 0.2), { kind: 'identifiable' });
    expect(verdict).toMatchObject({ failOn: 'identifiable', failed: true, reason: '1 caller that can be told apart would be refused' });
    expect(verdict.callers.map((c) => c.integration)).toEqual(['tok_a']);
  });

  test('any fails on anything refused, anonymous traffic included', () => {
    expect(judgeDryRun(report([caller('anonymous')], 0.1), { kind: 'any' })).toMatchObject({ failed: true, reason: '1 caller would be refused (10 served work requests)' });
    expect(judgeDryRun(report([caller('tok_b', { savedBy: { until: '2027-01-01', note: null } })], 0), { kind: 'any' })).toMatchObject({ failed: false, reason: 'nothing would be refused' });
  });

  test('share fails only above the fraction, and passes when nothing was served', () => {
    const two = report([caller('tok_a'), caller('anonymous')], 0.2);
    expect(judgeDryRun(two, { kind: 'share', fraction: 0.2 })).toMatchObject({ failed: false, reason: 'the refused share, 20.00%, is within 20.00%' });
    const above = judgeDryRun(two, { kind: 'share', fraction: 0.19 });
    expect(above).toMatchObject({ failOn: 'share:0.19', failed: true, reason: 'the refused share, 20.00%, is above 19.00%' });
    expect(above.callers.map((c) => c.integration)).toEqual(['tok_a', 'anonymous']);
    expect(judgeDryRun(report([], null), { kind: 'share', fraction: 0 })).toMatchObject({ failed: false, reason: 'no served work requests in the window' });
  });
});

describe('mcp-sunset dry-run --fail-on, from the store and from a dashboard', () => {
  let service: TestService;
  let plans: { both: number; anonymousOnly: number };
  beforeAll(async () => {
    // The upstream is never asked: the gate reads only the counts.
    service = await startTestService(new URL('http://127.0.0.1:9/mcp'), { adminToken: TOKEN });
    plans = seed(service.database().db);
  });
  afterAll(() => service?.dispose());

  const local = (...args: string[]) => spawnCli(['dry-run', '--at', CUT, '--db', service.dbPath, ...args]);
  const remote = (...args: string[]) => spawnCli(['dry-run', '--at', CUT, '--api', service.apiUrl.href, ...args], { env: { MCP_SUNSET_ADMIN_TOKEN: TOKEN } });

  test.each([
    ['both', 'identifiable', 3, ['tok_a']],
    ['both', 'any', 3, ['tok_a', 'anonymous']],
    ['both', 'share:0.5', 0, []],
    ['both', 'share:0.49', 3, ['tok_a', 'anonymous']],
    ['anonymousOnly', 'identifiable', 0, []],
    ['anonymousOnly', 'any', 3, ['anonymous']],
    ['anonymousOnly', 'share:0.1', 0, []],
  ] as const)('plan %s, --fail-on %s: exits %i, naming %j, from the store and from the API alike', async (which, gate, code, failing) => {
    const fromStore = local('--plan', String(plans[which]), '--fail-on', gate, '--json');
    const fromApi = remote('--plan', String(plans[which]), '--fail-on', gate, '--json');
    for (const run of [fromStore, fromApi]) {
      expect({ code: await run.exited, stderr: run.stderr() }).toEqual({ code, stderr: '' });
      const { gate: verdict, totals } = JSON.parse(run.stdout());
      expect(verdict.failed).toBe(code === 3);
      expect(verdict.callers.map((c: { integration: string }) => c.integration)).toEqual(failing);
      expect(totals.servedRequests).toBe(200);
    }
    expect(JSON.parse(fromApi.stdout())).toEqual(JSON.parse(fromStore.stdout()));
  }, 60_000);

  test('as a table: the dry run, then the verdict and the callers that fail it', async () => {
    const run = local('--plan', String(plans.both), '--fail-on', 'identifiable');
    expect(await run.exited).toBe(3);
    const text = run.stdout();
    expect(text).toContain('would refuse 2 of 2 callers in scope: 100 of 200 served work requests (50.00%)');
    const gate = text.slice(text.indexOf('gate --fail-on'));
    expect(gate.split('\n')[0]).toBe('gate --fail-on identifiable: FAIL, 1 caller that can be told apart would be refused');
    expect(gate).toMatch(/tok_a\s+8\s+/);
    expect(gate).not.toContain('anonymous');
  }, 30_000);

  test('a passing gate says so and exits 0', async () => {
    const run = remote('--plan', String(plans.anonymousOnly), '--fail-on', 'identifiable');
    expect({ code: await run.exited, stderr: run.stderr() }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout()).toContain('gate --fail-on identifiable: pass, no caller that can be told apart would be refused');
  }, 30_000);

  test.each([
    [['--fail-on', 'most'], /--fail-on.*identifiable, any, or share:<fraction>/],
    [['--fail-on', 'share:1.5'], /--fail-on.*from 0 to 1/],
    [['--plan', '999', '--fail-on', 'any'], /no plan 999/],
    [['--api', 'ftp://x.test/', '--fail-on', 'any'], /--api.*http\(s\) URL/],
  ])('a usage error %j exits 2 with one line', async (args, pattern) => {
    const run = spawnCli(['dry-run', ...(args.includes('--plan') ? [] : ['--plan', String(plans.both)]), ...args, '--db', service.dbPath]);
    expect(await run.exited).toBe(2);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  }, 30_000);

  test('--api with --db, an unknown plan at the API, or --token without --api exit 2', async () => {
    const both = spawnCli(['dry-run', '--plan', String(plans.both), '--api', service.apiUrl.href, '--db', service.dbPath]);
    const unknown = remote('--plan', '999', '--fail-on', 'any');
    const token = spawnCli(['dry-run', '--plan', String(plans.both), '--token', TOKEN, '--db', service.dbPath]);
    for (const [run, pattern] of [[both, /--api.*without --db/], [unknown, /no plan 999 at http:\/\/127\.0\.0\.1:\d+/], [token, /--token is for --api/]] as const) {
      expect(await run.exited).toBe(2);
      expect(run.stderr().trim().split('\n')).toEqual([expect.stringMatching(pattern)]);
    }
  }, 30_000);

  test('a store or an API that cannot be read exits 1 with one line, never 0 or 3', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const runs = [
      [spawnCli(['dry-run', '--plan', '1', '--fail-on', 'any', '--db', `${service.dir}/missing.db`]), /no database at/],
      [spawnCli(['dry-run', '--plan', '1', '--fail-on', 'any', '--api', `http://127.0.0.1:${port}/`]), /cannot read the API at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/],
      [spawnCli(['dry-run', '--plan', String(plans.both), '--fail-on', 'any', '--api', service.apiUrl.href, '--token', 'not-the-admin-token']), /refused the admin token \(401\)/],
      [spawnCli(['dry-run', '--plan', String(plans.both), '--fail-on', 'any', '--api', service.apiUrl.href], { env: { MCP_SUNSET_ADMIN_TOKEN: '' } }), /refused the admin token \(401\)/],
    ] as const;
    for (const [run, pattern] of runs) {
      expect(await run.exited).toBe(1);
      expect(run.stderr().trim().split('\n')).toEqual([expect.stringMatching(pattern)]);
    }
  }, 60_000);
});
