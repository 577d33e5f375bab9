import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateDeclaredPlans } from '../../server/cli/validate-declared-plans.js';
import { ConfigError } from '../../server/config/load-config.js';
import { spawnCli, waitForServing, type CliRun } from '../support/spawn-cli.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';

const POLICY = 'https://example.test/legacy-retirement';

function declared(overrides: Record<string, unknown> = {}) {
  return { key: 'legacy-2027', name: 'Retire legacy', scope: { kind: 'era', value: 'legacy' }, announceDate: '2027-01-01', retireDate: '2027-07-01', ...overrides };
}

function failure(plans: Record<string, unknown>[]): string {
  try {
    validateDeclaredPlans(plans as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the plans were accepted');
}

describe('validating the plans of the config file', () => {
  test('a valid plan comes out as the store holds it, with the defaults of the plans API', async () => {
    const [plan] = validateDeclaredPlans([
      declared({ action: 'deny', policyUrl: POLICY, brownouts: [{ startsAt: '2027-03-01T09:00:00Z', endsAt: '2027-03-01T10:00:00Z' }], exemptions: [{ integration: 'tok_a', until: '2027-08-01' }] }),
    ] as never);
    expect(plan).toEqual({
      key: 'legacy-2027',
      plan: {
        name: 'Retire legacy',
        scopeKind: 'era',
        scopeValue: 'legacy',
        announceDate: '2027-01-01',
        retireDate: '2027-07-01',
        targetShare: 0.005,
        basis: 'work-requests',
        policyUrl: POLICY,
        brownouts: [{ startsAt: Date.UTC(2027, 2, 1, 9), endsAt: Date.UTC(2027, 2, 1, 10), note: null }],
        action: 'deny',
        blockNewCallersFrom: null,
        quietDays: 30,
        gate: null,
        exemptions: [{ integration: 'tok_a', until: '2027-08-01', note: null }],
        noticeDays: [],
      },
    });
  });

  test.each([
    [declared({ retireDate: '2026-12-01' }), 'config plans[0] ("legacy-2027").retireDate: must be after announceDate: '],
    [declared({ action: 'deny' }), 'config plans[0] ("legacy-2027").policyUrl: required when action is deny'],
    [declared({ gate: { backstopDate: '2027-06-01' } }), 'config plans[0] ("legacy-2027").gate.backstopDate: must not be before retireDate'],
    [declared({ blockNewCallersFrom: '2026-06-01' }), 'config plans[0] ("legacy-2027").blockNewCallersFrom: must not be before announceDate'],
    [declared({ exemptions: [{ integration: 'a', until: '2027-08-01' }, { integration: 'a', until: '2027-08-01' }] }), 'config plans[0] ("legacy-2027").exemptions.1.integration: a is exempted twice'],
    [declared({ quietDays: 0 }), 'config plans[0] ("legacy-2027").quietDays: '],
    [declared({ scope: { kind: 'era', value: 'modern' } }), 'config plans[0] ("legacy-2027").scope.value: '],
    [declared({ announceDate: undefined }), 'config plans[0] ("legacy-2027").announceDate: '],
    [declared({ colour: 'red' }), 'config plans[0] ("legacy-2027").colour: unknown field'],
    [declared({ archived: true }), 'config plans[0] ("legacy-2027").archived: unknown field'],
    [declared({ brownoutSchedule: { firstDate: '2027-03-16', startTime: '14:00', timeZone: 'UTC', durations: ['1h'], everyDays: 1e9 } }), 'config plans[0] ("legacy-2027").brownoutSchedule.everyDays: '],
    [declared({ brownoutSchedule: { firstDate: '9999-12-20', startTime: '14:00', timeZone: 'UTC', durations: ['1h', '1h', '1h'], everyDays: 7 } }), 'config plans[0] ("legacy-2027").brownoutSchedule.firstDate: the schedule runs past 9999-12-31'],
  ])('%j is refused with a message naming the plan and the field', (plan, start) => {
    expect(failure([plan])).toMatch(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('the first bad plan is the one named, by its index and key', async () => {
    expect(failure([declared(), declared({ key: 'sse-2027', scope: { kind: 'transport', value: 'pigeon' } })])).toMatch(/^config plans\[1\] \("sse-2027"\)\.scope\.value: /);
  });
});

describe('the mcp-sunset command with plans in its config file', () => {
  let dir: string;
  let upstream: RawUpstream;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-plans-'));
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
  });
  afterAll(async () => {
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function configFile(name: string, content: Record<string, unknown>): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  }

  // Each spawn costs seconds: one fault between fields and one in the keys; the rest is checked above.
  test.each([
    ['a retire date before the announce date', { plans: [declared({ retireDate: '2026-12-01' })] }, /^mcp-sunset: config plans\[0\] \("legacy-2027"\)\.retireDate: must be after announceDate: /],
    ['a key declared twice', { plans: [declared(), declared()] }, /^mcp-sunset: plans\.1\.key: "legacy-2027" is declared twice$/],
  ])('serve with %s in the file stops with status 2 and one line naming the plan and the field', async (_what, content, line) => {
    const db = join(dir, 'never.db');
    const run = spawnCli(['serve', '--config', configFile('bad.json', content), '--upstream', upstream.origin, '--db', db, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0']);
    expect(await run.exited).toBe(2);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });

  async function serving(args: string[]): Promise<{ run: CliRun; plans: () => Promise<any[]> }> {
    const run = spawnCli(['serve', '--upstream', upstream.origin, '--listen', '127.0.0.1:0', '--dashboard', '127.0.0.1:0', '--log-level', 'silent', ...args]);
    const { apiUrl } = await waitForServing(run);
    const plans = async () => ((await (await fetch(new URL('/api/v1/plans?includeArchived=true', apiUrl))).json()) as { plans: any[] }).plans;
    return { run, plans };
  }

  async function stop(run: CliRun): Promise<void> {
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }

  test('serve puts the declared plans in the store; a start without plans in its settings leaves them, a file without one archives it', async () => {
    const db = join(dir, 'declared.db');
    const first = await serving(['--db', db, '--config', configFile('plans.json', { plans: [declared({ action: 'warn', policyUrl: POLICY, gate: { backstopDate: '2027-12-31' } })] })]);
    try {
      expect(await first.plans()).toEqual([expect.objectContaining({ declaredKey: 'legacy-2027', action: 'warn', gate: { backstopDate: '2027-12-31', maxShare: null }, archivedAt: null })]);
    } finally {
      await stop(first.run);
    }

    const withoutFile = await serving(['--db', db]);
    try {
      expect(await withoutFile.plans()).toEqual([expect.objectContaining({ declaredKey: 'legacy-2027', archivedAt: null })]);
    } finally {
      await stop(withoutFile.run);
    }

    const emptied = await serving(['--db', db, '--config', configFile('no-plans.json', { plans: [] })]);
    try {
      const [plan] = await emptied.plans();
      expect(plan).toMatchObject({ declaredKey: 'legacy-2027' });
      expect(plan.archivedAt).not.toBeNull();
    } finally {
      await stop(emptied.run);
    }
  }, 60_000);
});
