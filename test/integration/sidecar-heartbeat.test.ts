import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sidecarNodesTable } from '../../server/store/sqlite/schema/index.js';
import { runV1HttpSession, runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

describe('the serving node records itself with its flushes, real SDK peers through the sidecar', () => {
  let peer: Peer;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV2Server('dual');
    // No background flush: every write in this test is one the test asked for.
    service = await startTestService(new URL(peer.origin), { flushIntervalMs: 600_000 });
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  const row = () => service.database().db.select().from(sidecarNodesTable).where(eq(sidecarNodesTable.node, 'test-node')).get();

  test('its row names the policy version in force, and moves to the new one after a plan is created', async () => {
    const startedBefore = Date.now();
    await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
    await runV1HttpSession(new URL('/mcp', service.sidecarUrl));
    expect(await service.flush()).toBe(true);
    const first = row();
    expect(first).toMatchObject({ node: 'test-node', kind: 'serve', policyVersion: 0 });
    expect(first!.startedAt).toBeLessThanOrEqual(first!.firstSeen);
    expect(first!.lastFlushAt).toBeGreaterThanOrEqual(startedBefore);
    // The counts of that flush landed beside the heartbeat.
    expect((await trafficTotals(service, 'era')).legacy).toBeGreaterThan(0);

    const response = await fetch(new URL('/api/v1/plans', service.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Retire the legacy era', scope: { kind: 'era', value: 'legacy' }, announceDate: day(-30), retireDate: day(90), action: 'observe' }),
    });
    expect(response.status).toBe(201);
    await service.refreshPolicy();
    await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
    expect(await service.flush()).toBe(true);

    const { body } = await service.api('/api/v1/fleet');
    expect(body.policyVersion).toBeGreaterThan(0);
    expect(body.sidecars).toEqual([{ node: 'test-node', kind: 'serve', lastFlushAt: expect.any(String), policyVersion: body.policyVersion, stale: false, lagging: false }]);
    expect(row()).toMatchObject({ policyVersion: body.policyVersion, firstSeen: first!.firstSeen, startedAt: first!.startedAt });
    expect(row()!.lastFlushAt).toBeGreaterThanOrEqual(first!.lastFlushAt);
    expect(service.health().policy.version).toBe(body.policyVersion);
  });
});
