import { pino } from 'pino';
import { afterEach, expect, test } from 'vitest';
import { meter, type MeterMiddleware } from '../../server/express/index.js';
import { startV2Server } from '../peers/v2-server.js';
import { legacyPlan, sendPlan, v1Outcome } from '../support/enforcement-peers.js';
import { startTestService } from '../support/start-test-service.js';
import { startMeteredApp } from './metered-apps.js';

const MINUTE = 60_000;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('a brownout begins and ends at the same instant on a sidecar and two middleware apps sharing one store', async () => {
  // One clock for every node, moved by the test: the edge must come from the plan, not from when each node heard of it.
  let offset = 0;
  const clock = () => Date.now() + offset;
  const upstream = await startV2Server('dual');
  cleanups.push(() => upstream.close());
  const enforcement = { supportedVersions: ['2026-07-28', '2025-11-25'] };
  const service = await startTestService(new URL(upstream.origin), { enforcement }, clock);
  cleanups.push(() => service.dispose());
  const apps: { url: URL; metered: MeterMiddleware }[] = [];
  for (const node of ['app-1', 'app-2']) {
    const metered = meter({ db: service.dbPath, node, enforcement, now: clock, logger: pino({ level: 'silent' }) });
    cleanups.push(() => metered.close());
    const peer = await startMeteredApp('v2-dual', { json: node === 'app-2', metered });
    cleanups.push(() => peer.close());
    apps.push({ url: new URL('/mcp', peer.origin), metered });
  }
  const nodes = [new URL('/mcp', service.sidecarUrl), ...apps.map((a) => a.url)];

  const startsAt = Math.ceil((Date.now() + 60 * MINUTE) / MINUTE) * MINUTE;
  const endsAt = startsAt + 30 * MINUTE;
  await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ brownouts: [{ startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString(), note: 'fleet drill' }] }));
  const { body } = await service.api<{ policyVersion: number }>('/api/v1/fleet');
  const deadline = Date.now() + 10_000;
  const versions = () => [service.health().policy.version, ...apps.map((a) => a.metered.policy()?.version)];
  while (versions().some((v) => v !== body.policyVersion) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(versions()).toEqual([body.policyVersion, body.policyVersion, body.policyVersion]);

  const at = async (instant: number) => {
    offset = instant - Date.now();
    const outcomes: string[] = [];
    for (const url of nodes) outcomes.push(await v1Outcome(url));
    return outcomes;
  };
  expect(await at(startsAt - 5_000)).toEqual(['3', '3', '3']);
  expect(await at(startsAt)).toEqual(['brownout', 'brownout', 'brownout']);
  expect(await at(endsAt - 5_000)).toEqual(['brownout', 'brownout', 'brownout']);
  expect(await at(endsAt)).toEqual(['3', '3', '3']);
});
