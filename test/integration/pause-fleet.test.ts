import { pino } from 'pino';
import { afterEach, expect, test } from 'vitest';
import { meter } from '../../server/express/index.js';
import { startMeteredApp } from '../express/metered-apps.js';
import { startV2Server } from '../peers/v2-server.js';
import { legacyPlan, policyInForce, sendPlan, v1Outcome } from '../support/enforcement-peers.js';
import { startTestService } from '../support/start-test-service.js';

const HOUR = 3_600_000;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface NodeCounts {
  refused: number;
  served: number;
  wouldBlock: number;
}

test('a pause through the API lets a v1 client through a brownout on a sidecar and a middleware app from its next policy check, counted as would-block, until it ends', async () => {
  let offset = 0;
  const clock = () => Date.now() + offset;
  const upstream = await startV2Server('dual');
  cleanups.push(() => upstream.close());
  const enforcement = { supportedVersions: ['2026-07-28', '2025-11-25'] };
  const service = await startTestService(new URL(upstream.origin), { enforcement }, clock);
  cleanups.push(() => service.dispose());
  // The middleware node hears of the pause only through the store it shares with the sidecar.
  const metered = meter({ db: service.dbPath, node: 'app-1', enforcement, now: clock, flushIntervalMs: 200, logger: pino({ level: 'silent' }) });
  let meteredOpen = true;
  cleanups.push(async () => meteredOpen && metered.close());
  const app = await startMeteredApp('v2-dual', { json: true, metered });
  cleanups.push(() => app.close());
  const nodes = { 'test-node': new URL('/mcp', service.sidecarUrl), 'app-1': new URL('/mcp', app.origin) };

  const { id } = await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ brownouts: [{ startsAt: new Date(Date.now() - HOUR).toISOString(), endsAt: new Date(Date.now() + 3 * HOUR).toISOString(), note: 'drill' }] }));
  const { body: fleet } = await service.api<{ policyVersion: number }>('/api/v1/fleet');
  await policyInForce(() => metered.policy()?.version, fleet.policyVersion);
  for (const url of Object.values(nodes)) expect(await v1Outcome(url)).toBe('brownout');

  const response = await fetch(new URL('/api/v1/pauses', service.apiUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ plans: [id], for: '1h', reason: 'partner caught in the brownout' }),
  });
  expect(response.status).toBe(201);
  const { pauses } = (await response.json()) as { pauses: { id: number; planId: number; until: string; active: boolean; pausedBy: string }[] };
  expect(pauses).toMatchObject([{ planId: id, active: true, pausedBy: 'api (no admin token)' }]);

  // The sidecar whose API made the pause serves the very next call: the API answered after its rebuild.
  expect(await v1Outcome(nodes['test-node'])).toBe('3');
  // The middleware node hears of it through the store, at its next check of the policy version
  // (every second: create-policy-refresher.test.ts); from that event on, it serves.
  await policyInForce(() => metered.policy()?.version, await service.store!.getPolicyVersion());
  expect(await v1Outcome(nodes['app-1'])).toBe('3');
  expect(service.health().policy.pausedPlans).toEqual([{ id, name: 'Retire the legacy era', until: pauses[0]!.until }]);
  expect((await service.api(`/api/v1/plans/${id}`)).body.enforcement).toMatchObject({ phase: 'paused', pause: { reason: 'partner caught in the brownout' } });
  const metrics = async () => (await (await fetch(new URL('/metrics', service.apiUrl))).text()).match(/^mcp_sunset_paused_plans (\d+)$/m)?.[1];
  expect(await metrics()).toBe('1');

  // The pause runs out an hour later, and both nodes refuse again at that instant, with no store round.
  offset = Date.parse(pauses[0]!.until) - Date.now();
  for (const url of Object.values(nodes)) expect(await v1Outcome(url)).toBe('brownout');
  expect(await metrics()).toBe('0');
  offset = 0;

  await service.flush();
  await metered.close();
  meteredOpen = false;
  const rows = service
    .database()
    .sqlite.prepare(
      `select node, bucket_start as minute, outcome, sum(count) as count, sum(would_block_count) as wouldBlock from traffic_minute
       where era = 'legacy' and kind = 'request' group by node, bucket_start, outcome`,
    )
    .all() as { node: string; minute: number; outcome: string; count: number; wouldBlock: number }[];
  // The calls after the pause ran out were made an hour on, in a minute of their own.
  const endMinute = Math.floor(Date.parse(pauses[0]!.until) / 60_000) * 60_000;
  const during = (node: string): NodeCounts => {
    const inPause = rows.filter((r) => r.node === node && r.minute < endMinute);
    const refused = inPause.filter((r) => r.outcome === 'blocked');
    const served = inPause.filter((r) => r.outcome !== 'blocked');
    return { refused: sum(refused, 'count'), served: sum(served, 'count'), wouldBlock: sum(inPause, 'wouldBlock') };
  };
  for (const node of Object.keys(nodes)) {
    const counts = during(node);
    // Refused before the pause (and on the middleware node until it obeyed); every request served under the brownout was served by the pause, and counted so.
    expect(counts.refused, node).toBeGreaterThan(0);
    expect(counts.served, node).toBeGreaterThan(0);
    expect(counts.wouldBlock, node).toBe(counts.served);
    const after = rows.filter((r) => r.node === node && r.minute >= endMinute);
    expect(after.every((r) => r.outcome === 'blocked' && r.wouldBlock === 0), node).toBe(true);
    expect(after.length, node).toBeGreaterThan(0);
  }
});

function sum<T>(rows: readonly T[], key: keyof T): number {
  return rows.reduce((total, row) => total + Number(row[key]), 0);
}
