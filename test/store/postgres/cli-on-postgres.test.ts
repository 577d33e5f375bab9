import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { meter, type MeterMiddleware } from '../../../server/express/index.js';
import { openStore } from '../../../server/store/open-store.js';
import type { Store } from '../../../server/store/store.js';
import { startMeteredApp } from '../../express/metered-apps.js';
import type { Peer } from '../../peers/listen-peer.js';
import { createTestDatabase, type TestDatabase } from '../../support/create-test-database.js';
import { errorOf, policyInForce, v1HttpAdd, v1Outcome } from '../../support/enforcement-peers.js';
import { planInput } from '../../support/plan-input.js';
import { spawnCli } from '../../support/spawn-cli.js';
import { cell, sighting, writeCells } from '../contract/backends.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
// The spawned command reads the real clock: the cut asked about is a week ago, inside the counts' window.
const CUT_AT = Math.floor(Date.now() / DAY) * DAY - 7 * DAY;
const CUT = new Date(CUT_AT).toISOString().slice(0, 10);
const dayBefore = (days: number) => new Date(CUT_AT - days * DAY).toISOString().slice(0, 10);

describe('the command line on a Postgres store', () => {
  let db: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = await openStore(db.url);
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  test('dry-run --fail-on exits 3 or 0 by what the cut would refuse, and 2 for a plan that is not there', async () => {
    const seen = { firstSeen: CUT_AT - 20 * DAY, lastSeen: CUT_AT - DAY, lastLegacySeen: CUT_AT - DAY };
    await writeCells(
      store,
      [
        cell({ minute: CUT_AT - 2 * DAY, integration: 'tok_a', count: 80 }),
        cell({ minute: CUT_AT - 3 * DAY, integration: 'anonymous', count: 20 }),
        cell({ minute: CUT_AT - 3 * DAY, integration: 'tok_m', era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 100 }),
      ],
      [sighting({ key: 'tok_a', ...seen }), sighting({ key: 'tok_m', ...seen })],
    );
    const plan = (name: string, exemptions: { integration: string; until: string; note: string | null }[]) =>
      planInput({ name, announceDate: dayBefore(100), retireDate: dayBefore(-90), policyUrl: null, action: 'observe', quietDays: 10, exemptions });
    const both = (await store.insertPlan(plan('Retire legacy', []), CUT_AT)).id;
    const anonymousOnly = (await store.insertPlan(plan('tok_a exempt', [{ integration: 'tok_a', until: dayBefore(-30), note: null }]), CUT_AT)).id;

    for (const [id, gate, code, failing] of [
      [both, 'identifiable', 3, ['tok_a']],
      [both, 'any', 3, ['tok_a', 'anonymous']],
      [both, 'share:0.5', 0, []],
      [both, 'share:0.49', 3, ['tok_a', 'anonymous']],
      [anonymousOnly, 'identifiable', 0, []],
      [anonymousOnly, 'any', 3, ['anonymous']],
    ] as const) {
      const run = spawnCli(['dry-run', '--db', db.url, '--plan', String(id), '--at', CUT, '--fail-on', gate, '--json']);
      expect({ gate, code: await run.exited, stderr: run.stderr() }).toEqual({ gate, code, stderr: '' });
      const report = JSON.parse(run.stdout());
      expect(report.gate.callers.map((c: { integration: string }) => c.integration)).toEqual(failing);
      expect(report.totals.servedRequests).toBe(200);
    }
    const missing = spawnCli(['dry-run', '--db', db.url, '--plan', '999', '--fail-on', 'any']);
    expect(await missing.exited).toBe(2);
    expect(missing.stderr()).toMatch(/no plan 999/);
  }, 120_000);

  describe('pause and resume --db, obeyed by a node on the same store', () => {
    let metered: MeterMiddleware;
    let app: Peer;
    let planId: number;
    beforeAll(async () => {
      metered = meter({ db: db.url, node: 'app-pg', enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] }, logger: pino({ level: 'silent' }) });
      app = await startMeteredApp('v2-dual', { json: true, metered });
      planId = (
        await store.insertPlan(
          planInput({ name: 'Brownout drill', announceDate: dayBefore(30), retireDate: dayBefore(-90), action: 'deny', brownouts: [{ startsAt: Date.now() - HOUR, endsAt: Date.now() + 3 * HOUR, note: null }] }),
          Date.now(),
        )
      ).id;
    });
    afterAll(async () => {
      await app?.close();
      await metered?.close();
    });

    const outcome = () => v1Outcome(new URL('/mcp', app.origin));
    // The node has compiled what the command just stored (it checks every second).
    const storedPolicyInForce = async () => policyInForce(() => metered.policy()?.version, await store.getPolicyVersion());

    test('the node serves from its next check after the pause, and refuses again from its next check after the resume', async () => {
      await storedPolicyInForce();
      expect(await outcome()).toBe('brownout');

      const pause = spawnCli(['pause', '--db', db.url, '--plan', String(planId), '--for', '2h', '--reason', 'partner caught', '--json']);
      expect({ code: await pause.exited, stderr: pause.stderr() }).toEqual({ code: 0, stderr: '' });
      const [paused] = JSON.parse(pause.stdout()).pauses;
      expect(paused).toMatchObject({ planId, reason: 'partner caught', active: true, pausedBy: expect.stringMatching(/^command line/) });
      await storedPolicyInForce();
      expect(await outcome()).toBe('3');

      const resume = spawnCli(['resume', '--db', db.url, '--plan', String(planId)]);
      expect(await resume.exited).toBe(0);
      expect(resume.stdout()).toMatch(new RegExp(`^resumed plan ${planId} "Brownout drill" at \\S+ \\(paused since ${paused.startedAt} by command line`));
      await storedPolicyInForce();
      expect(await outcome()).toBe('brownout');
      // Resuming what is not paused changes nothing and says so.
      const again = spawnCli(['resume', '--db', db.url, '--all']);
      expect({ code: await again.exited, stdout: again.stdout() }).toEqual({ code: 0, stdout: 'nothing to resume: no plan is paused\n' });
      expect((await errorOf(() => v1HttpAdd(new URL('/mcp', app.origin)))).message).toContain('brownout');
    }, 60_000);
  });
});
