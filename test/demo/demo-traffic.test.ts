import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../server/config/load-config.js';
import { buildDemoClientHeaders } from '../../server/demo/build-demo-client-headers.js';
import { DEMO_CLIENTS } from '../../server/demo/demo-clients.js';
import { startDemoServer } from '../../server/demo/demo-server.js';
import { startDemoTraffic } from '../../server/demo/demo-traffic.js';
import { identifyDemoClients } from '../../server/demo/identify-demo-clients.js';
import { measureDemoHistoryDay } from '../../server/demo/measure-demo-history-day.js';
import { runDemoSession } from '../../server/demo/run-demo-session.js';
import { seedDemoHistory } from '../../server/demo/seed-demo-history.js';
import { withDemoIdentity } from '../../server/demo/with-demo-identity.js';
import { createCallerIdentifier } from '../../server/sidecar/identify-caller.js';
import { isWorkRequest } from '../../server/protocol/work-request.js';
import { getInstallSecret } from '../../server/store/sqlite/get-install-secret.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

describe('startDemoTraffic', () => {
  test('drives every demo client against the demo server without an error; stop() cuts sessions in flight short', async () => {
    const server = await startDemoServer();
    const failures: string[] = [];
    try {
      const traffic = startDemoTraffic({ target: new URL(server.origin), pace: 300, log: (line) => failures.push(line) });
      const everyClientDone = () => Object.values(traffic.stats().byClient).every((tally) => tally.sessions > 0);
      while (!everyClientDone() || traffic.stats().inFlight === 0) await sleep(50);
      await traffic.stop();

      const stats = traffic.stats();
      expect(failures).toEqual([]);
      expect(stats).toMatchObject({ errors: 0, skipped: 0, inFlight: 0 });
    } finally {
      await server.close();
    }
  });

  test('counts a failed session instead of throwing when the target is unreachable', async () => {
    const server = await startDemoServer();
    const origin = new URL(server.origin);
    await server.close();
    const traffic = startDemoTraffic({ target: origin, pace: 300 });
    await sleep(1_000);
    await traffic.stop();
    expect(traffic.stats().errors).toBeGreaterThan(0);
    expect(traffic.stats().sessions).toBe(0);
  });
});

const DAY_MS = 86_400_000;
/** Simulated time per real time: 8 s of the test stand for 40 minutes of demo, if the machine keeps up. */
const PACE = 300;
const RUN_MS = 8_000;

/** Served work requests by era, from the traffic API grouped by method, with negotiation and plumbing left out. */
async function servedWork(service: TestService, filters: Record<string, string>): Promise<{ legacy: number; modern: number }> {
  const work = async (era: string) => {
    const totals = await trafficTotals(service, 'method', { ...filters, era, kind: 'request', outcome: 'served' });
    return Object.entries(totals).reduce((sum, [method, count]) => (isWorkRequest('request', method) ? sum + count : sum), 0);
  };
  return { legacy: await work('legacy'), modern: await work('modern') };
}

/** The real service with the demo's identity settings and the demo history seeded, as `serve` runs it. */
async function startDemoService(upstream: URL, options: { liveCallersSeeded: boolean }) {
  const identity = withDemoIdentity(loadConfig({ flags: { node: 'test-node' } }).identity);
  const service = await startTestService(upstream, { identity });
  // The demo seeds through its own SQLite connection, as `serve` does.
  const db = service.database().db;
  const identify = createCallerIdentifier({ secret: getInstallSecret(db), ...identity });
  const liveCallers = identifyDemoClients(identify, identity.apiKeyHeader);
  seedDemoHistory(db, Date.now(), options.liveCallersSeeded ? { liveCallers } : {});
  return { service, identity, liveCallers };
}

async function newLegacyAlerts(service: TestService): Promise<{ subject: string }[]> {
  await service.runAlerts!();
  const { body } = await service.api('/api/v1/alerts');
  return body.alerts.filter((alert: { rule: string }) => alert.rule === 'new-legacy-integration');
}

describe('startDemoTraffic against the seeded demo history', () => {
  test('a long stretch of live traffic, run fast, keeps the seeded legacy share and daily volume, and raises no new-caller alert', async () => {
    const server = await startDemoServer();
    const { service, identity, liveCallers } = await startDemoService(new URL(server.origin), { liveCallersSeeded: true });
    try {
      const day = measureDemoHistoryDay(service.database().db)!;
      const failures: string[] = [];
      const traffic = startDemoTraffic({ target: service.sidecarUrl, day, pace: PACE, apiKeyHeader: identity.apiKeyHeader, log: (line) => failures.push(line) });
      await sleep(RUN_MS);
      // Every session started is counted in full; a busy machine stretches the schedule, never reorders it.
      await traffic.stop({ drain: true });
      const { scheduledMs, ...stats } = traffic.stats();
      expect(failures).toEqual([]);
      expect(stats).toMatchObject({ errors: 0, skipped: 0, inFlight: 0 });
      expect(scheduledMs).toBeGreaterThan(0);
      await service.flush();

      // The live clients are the seeded callers they play, the static-map one included.
      const callers = Object.keys(await trafficTotals(service, 'integration', { node: 'test-node' })).sort();
      expect(callers).toEqual(Object.values(liveCallers).map((c) => c.integration).sort());
      expect(callers).toContain('crm-sync');

      // (a) The live traffic alone keeps the seeded share of work; so does today as the dashboard sums it.
      const live = await servedWork(service, { node: 'test-node' });
      const liveShare = live.legacy / (live.legacy + live.modern);
      expect(live.legacy).toBeGreaterThan(0);
      expect(liveShare).toBeGreaterThan(0.6 * day.legacyShare);
      expect(liveShare).toBeLessThan(1.5 * day.legacyShare);
      const todayStart = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS).toISOString();
      const today = await servedWork(service, { from: todayStart });
      const todayShare = today.legacy / (today.legacy + today.modern);
      expect(todayShare).toBeGreaterThan(0.6 * day.legacyShare);
      expect(todayShare).toBeLessThan(1.5 * day.legacyShare);

      // (b) At this rate a day of live traffic is the size of a seeded day.
      const projectedDay = ((live.legacy + live.modern) * DAY_MS) / scheduledMs;
      expect(projectedDay).toBeGreaterThan(0.5 * day.workRequests);
      expect(projectedDay).toBeLessThan(2 * day.workRequests);

      // (c) The history already knows the live callers.
      expect(await newLegacyAlerts(service)).toEqual([]);
    } finally {
      await service.dispose();
      await server.close();
    }
  });

  test('without the live callers in the history, a live legacy client is a new caller (the check above can fail)', async () => {
    const server = await startDemoServer();
    const { service, identity, liveCallers } = await startDemoService(new URL(server.origin), { liveCallersSeeded: false });
    try {
      const client = DEMO_CLIENTS.find((c) => c.kind === 'legacy-http')!;
      const base = new URL(`${service.sidecarUrl.origin}/`);
      await runDemoSession({ kind: client.kind, base, headers: buildDemoClientHeaders(client, identity.apiKeyHeader), rounds: 1 }, new AbortController().signal);
      await service.flush();
      expect((await newLegacyAlerts(service)).map((a) => a.subject)).toEqual([`integration:${liveCallers['legacy-http'].integration}`]);
    } finally {
      await service.dispose();
      await server.close();
    }
  });
});
