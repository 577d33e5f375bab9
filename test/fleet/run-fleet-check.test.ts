import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createFleetHoldOffs } from '../../server/fleet/fleet-hold-offs.js';
import { runFleetCheck, type FleetNode } from '../../server/fleet/run-fleet-check.js';
import { createLogger } from '../../server/lib/create-logger.js';
import { probe } from '../../server/prober/probe.js';
import { listLatestProbes } from '../../server/store/sqlite/list-latest-probes.js';
import { startFakeHttpServer, type FakeServer } from '../prober/fakes/fake-http-server.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const T = Date.parse('2026-12-01T12:00:00Z');

describe('runFleetCheck and Retry-After', () => {
  let temp: TempDatabase;
  let busy: FakeServer;
  let quiet: FakeServer;
  beforeEach(async () => {
    temp = openTempDatabase();
    busy = await startFakeHttpServer(() => ({ status: 503, headers: { 'retry-after': '30' } }));
    // An ordinary outage: 503 with no Retry-After.
    quiet = await startFakeHttpServer(() => ({ status: 503 }));
  });
  afterEach(async () => {
    await Promise.all([busy.close(), quiet.close()]);
    temp.dispose();
  });

  test('a node that answered 503 with Retry-After: 30 is not probed again until 30 s later; the other nodes are', async () => {
    let clock = T;
    const sleeps: number[] = [];
    const holdOffs = createFleetHoldOffs();
    const nodes: FleetNode[] = [{ name: 'busy', url: busy.url.href }, { name: 'quiet', url: quiet.url.href }];
    const check = () =>
      runFleetCheck({
        store: temp.backend,
        now: () => clock,
        nodes,
        timeoutMs: 2000,
        holdOffs,
        logger: createLogger('silent'),
        probeNode: (node) => probe({ name: node.name, target: { kind: 'http', url: node.url } }, { attempts: 1, probeTimeoutMs: 2000, now: () => clock, sleep: async (ms) => sleeps.push(ms) }),
      });

    const first = await check();
    expect(first.map((r) => [r.node, r.state])).toEqual([['busy', 'unavailable'], ['quiet', 'unavailable']]);
    expect(first[0]!.detail).toContain('Retry-After 30 s');

    clock = T + 29_000;
    const second = await check();
    expect(second.map((r) => r.node)).toEqual(['quiet']);
    expect(busy.requests).toHaveLength(1);
    // The view keeps the busy node's last answer, which says when to come back.
    expect(listLatestProbes(temp.store.db).find((p) => p.node === 'busy')).toMatchObject({ state: 'unavailable', at: T });

    clock = T + 30_000;
    const third = await check();
    expect(third.map((r) => r.node)).toEqual(['busy', 'quiet']);
    expect(busy.requests).toHaveLength(2);
    expect(quiet.requests).toHaveLength(3);
    expect(sleeps).toEqual([]);
  });
});
