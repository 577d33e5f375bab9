import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Peer } from '../../peers/listen-peer.js';
import { startV2Server } from '../../peers/v2-server.js';
import { legacyPlan, policyInForce, v1Outcome } from '../../support/enforcement-peers.js';
import { spawnCli } from '../../support/spawn-cli.js';
import { startTestService, type TestService } from '../../support/start-test-service.js';

const HOUR = 3_600_000;
const TOKEN = 'pause-admin-token-0123456789';

describe('mcp-sunset pause and resume, on the store and through a dashboard', () => {
  let upstream: Peer;
  let service: TestService;
  let planId: number;
  let otherId: number;
  beforeAll(async () => {
    upstream = await startV2Server('dual');
    service = await startTestService(new URL(upstream.origin), { adminToken: TOKEN, enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] } });
    const create = async (body: Record<string, unknown>) => {
      const response = await fetch(new URL('/api/v1/plans', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body) });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: number }).id;
    };
    const brownouts = [{ startsAt: new Date(Date.now() - HOUR).toISOString(), endsAt: new Date(Date.now() + 3 * HOUR).toISOString(), note: 'drill' }];
    planId = await create(legacyPlan({ name: 'Brownout drill', brownouts }));
    otherId = await create(legacyPlan({ name: 'Retire HTTP+SSE', scope: { kind: 'transport', value: 'http+sse' } }));
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  const sidecar = () => new URL('/mcp', service.sidecarUrl);
  const outcome = () => v1Outcome(sidecar());
  // The sidecar has compiled what the command just stored (it checks every second).
  const storedPolicyInForce = async () => policyInForce(() => service.health().policy.version, await service.store!.getPolicyVersion());

  test('pause --db: the running sidecar on that store serves from its next check; resume --db: it refuses again', async () => {
    expect(await outcome()).toBe('brownout');
    const pause = spawnCli(['pause', '--db', service.dbPath, '--plan', String(planId), '--for', '90m', '--reason', 'partner caught in the brownout']);
    expect({ code: await pause.exited, stderr: pause.stderr() }).toEqual({ code: 0, stderr: '' });
    expect(pause.stdout()).toMatch(new RegExp(`^paused plan ${planId} "Brownout drill" until \\S+Z by command line.*: partner caught in the brownout\\n$`));
    await storedPolicyInForce();
    expect(await outcome()).toBe('3');

    const resume = spawnCli(['resume', '--db', service.dbPath, '--plan', String(planId), '--plan', String(otherId)]);
    expect(await resume.exited).toBe(0);
    expect(resume.stdout().split('\n')).toHaveLength(2);
    await storedPolicyInForce();
    expect(await outcome()).toBe('brownout');
    const idle = spawnCli(['resume', '--db', service.dbPath, '--plan', String(planId)]);
    expect({ code: await idle.exited, stdout: idle.stdout() }).toEqual({ code: 0, stdout: `nothing to resume: plan ${planId} "Brownout drill" is not paused\n` });
  }, 60_000);

  test('pause --all --api with the admin token: every plan that acts, recorded as the token; resume --all --api', async () => {
    const env = { MCP_SUNSET_ADMIN_TOKEN: TOKEN };
    const pause = spawnCli(['pause', '--all', '--for', '1h', '--reason', 'incident 42', '--api', service.apiUrl.href, '--json'], { env });
    expect({ code: await pause.exited, stderr: pause.stderr() }).toEqual({ code: 0, stderr: '' });
    const { pauses } = JSON.parse(pause.stdout());
    expect(pauses.map((p: { planId: number; pausedBy: string; active: boolean }) => [p.planId, p.pausedBy, p.active])).toEqual([
      [planId, 'admin token', true],
      [otherId, 'admin token', true],
    ]);
    expect(Date.parse(pauses[0].until) - Date.parse(pauses[0].startedAt)).toBe(HOUR);
    // The API waited for this node's rebuild before it answered.
    expect(await outcome()).toBe('3');

    const resume = spawnCli(['resume', '--all', '--api', service.apiUrl.href, '--token', TOKEN]);
    expect(await resume.exited).toBe(0);
    expect(resume.stdout()).toContain(`resumed plan ${planId} "Brownout drill"`);
    expect(await outcome()).toBe('brownout');
  }, 60_000);

  test.each([
    [['pause', '--plan', '1', '--for', '1h'], /required option '--reason <text>'/],
    [['pause', '--plan', '1', '--reason', 'x'], /required option '--for <span>'/],
    [['pause', '--plan', '1', '--for', '24 hours', '--reason', 'x'], /expected a span such as 30m/],
    [['pause', '--plan', '1', '--for', '31d', '--reason', 'x'], /at most 30d/],
    [['pause', '--plan', '1', '--for', '1h', '--reason', '  '], /say why/],
    [['pause', '--for', '1h', '--reason', 'x'], /--plan ID \(again for more\) or --all/],
    [['pause', '--all', '--plan', '1', '--for', '1h', '--reason', 'x'], /--plan or --all, not both/],
    [['pause', '--plan', 'one', '--for', '1h', '--reason', 'x'], /expected a positive integer/],
    [['resume', '--all', '--token', 't'], /--token is for --api/],
    [['resume', '--plan', '999'], /no plan 999 \(or it is archived\)/],
  ])('%j exits 2 with one line', async (args, pattern) => {
    const run = spawnCli([...args, ...(args.includes('--token') ? [] : ['--db', service.dbPath])]);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toMatch(pattern);
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
  }, 30_000);

  test('a refused token, an unreachable API, or a plan the API does not have: one line each, exit 1, 1 and 2', async () => {
    const refused = spawnCli(['pause', '--all', '--for', '1h', '--reason', 'x', '--api', service.apiUrl.href, '--token', 'wrong']);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/refused the admin token \(401\)/);
    // A port that was just free: nothing listens on it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const down = spawnCli(['resume', '--all', '--api', `http://127.0.0.1:${port}/`, '--token', TOKEN]);
    expect(await down.exited).toBe(1);
    expect(down.stderr()).toMatch(/cannot read the API at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
    const unknown = spawnCli(['pause', '--plan', '999', '--for', '1h', '--reason', 'x', '--api', service.apiUrl.href, '--token', TOKEN]);
    expect(await unknown.exited).toBe(2);
    expect(unknown.stderr()).toMatch(/plans: no plan 999/);
    expect(await service.store!.listPlanPauses({ endedSince: Date.now() })).toEqual([]);
  }, 30_000);
});
