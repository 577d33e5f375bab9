import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bumpPolicyVersion } from '../../server/store/sqlite/policy-version.js';
import type { NodeHeartbeat } from '../../server/tally/tally-cell.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';
import { writeBatch } from '../support/write-batch.js';

const MINUTE = 60_000;

describe('GET /api/v1/fleet lists the sidecars writing to the store', () => {
  let upstream: RawUpstream;
  let service: TestService;
  let stored: number;
  let changedAt: number;

  beforeAll(async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    service = await startTestService(new URL(upstream.origin));
    // The policy moved ten minutes ago; three other nodes wrote their heartbeats around that change.
    changedAt = Date.now() - 10 * MINUTE;
    stored = bumpPolicyVersion(service.database().db, changedAt);
    const beat = (node: string, kind: NodeHeartbeat['kind'], policyVersion: number, at: number) => writeBatch(service.store!, { cells: [], integrations: [] }, { node, kind, policyVersion, at, startedAt: changedAt - 60 * MINUTE });
    await beat('edge-current', 'serve', stored, Date.now() - 2_000);
    await beat('edge-lagging', 'wrap', stored - 1, Date.now() - 2_000);
    await beat('edge-gone', 'serve', stored - 1, changedAt - 30_000);
    // This node's own table is rebuilt now, so its heartbeat (written by the read's flush) names the stored version.
    await service.refreshPolicy();
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('each with its kind, last flush, policy version, and stale and lagging flags', async () => {
    const { status, body } = await service.api('/api/v1/fleet');
    expect(status).toBe(200);
    expect(body.policyVersion).toBe(stored);
    expect(stored).toBe(await service.store!.getPolicyVersion());
    const byNode = Object.fromEntries(body.sidecars.map((s: { node: string }) => [s.node, s]));
    expect(Object.keys(byNode).sort()).toEqual(['edge-current', 'edge-gone', 'edge-lagging', 'test-node']);
    expect(byNode['edge-current']).toMatchObject({ kind: 'serve', policyVersion: stored, stale: false, lagging: false });
    expect(byNode['edge-lagging']).toMatchObject({ kind: 'wrap', policyVersion: stored - 1, stale: false, lagging: true });
    expect(byNode['edge-gone']).toEqual({ node: 'edge-gone', kind: 'serve', lastFlushAt: new Date(changedAt - 30_000).toISOString(), policyVersion: stored - 1, stale: true, lagging: false });
    expect(byNode['test-node']).toMatchObject({ kind: 'serve', policyVersion: stored, stale: false, lagging: false });
    expect(Date.parse(byNode['test-node'].lastFlushAt)).toBeGreaterThan(changedAt);
  });

  test('a query parameter it does not take is refused, naming it', async () => {
    const { status, body } = await service.api('/api/v1/fleet?sidecar=edge-1');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('sidecar');
  });
});
