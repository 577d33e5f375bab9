import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

async function post(service: TestService, path: string, body: unknown = {}) {
  const response = await fetch(new URL(path, service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('fleet consistency with real SDK servers', () => {
  let modern: Peer;
  let dual: Peer;
  let upstream: RawUpstream;
  beforeAll(async () => {
    [modern, dual, upstream] = await Promise.all([startV2Server('modern'), startV2Server('dual'), startRawUpstream((_req, res) => res.writeHead(404).end())]);
  });
  afterAll(async () => {
    await Promise.all([modern?.close(), dual?.close(), upstream?.close()]);
  });

  test('a half-rolled fleet (one node modern-only, one still serving legacy) drifts, and the fleet-drift alert fires', async () => {
    const service = await startTestService(new URL(upstream.origin), {
      fleet: { nodes: [{ name: 'node-a', url: modern.url.href }, { name: 'node-b', url: dual.url.href }], timeoutMs: 5000 },
    });
    try {
      const { status, body } = await post(service, '/api/v1/fleet/check');
      expect(status).toBe(200);
      expect(body.drift).toBe(true);
      const byNode = Object.fromEntries(body.nodes.map((n: { node: string }) => [n.node, n]));
      expect(byNode['node-a']).toMatchObject({ state: 'ready', era: 'modern', version: '2026-07-28', legacyAccepted: false, supportedVersions: ['2026-07-28'] });
      expect(byNode['node-b']).toMatchObject({ state: 'ready', era: 'modern', version: '2026-07-28', legacyAccepted: true, supportedVersions: ['2025-11-25', '2026-07-28'] });
      expect(body.nodes.filter((n: { differs: boolean }) => n.differs)).toHaveLength(1);
      // The prober sent server/discover and tools/list; the only initialize was the diagnostic one.
      expect(modern.seen.filter((r) => r.method === 'POST').length).toBe(3);

      const evaluated = await post(service, '/api/v1/alerts/evaluate');
      const firing = evaluated.body.alerts.filter((a: { state: string }) => a.state === 'firing').map((a: { rule: string }) => a.rule);
      expect(firing).toContain('fleet-drift');
      expect(firing).not.toContain('fleet-node-unavailable');
      expect((await service.api('/api/v1/fleet')).body.drift).toBe(true);
    } finally {
      await service.dispose();
    }
  });

  test('a uniform fleet does not drift; a node that cannot be reached is down and alerted', async () => {
    const service = await startTestService(new URL(upstream.origin), {
      fleet: {
        nodes: [
          { name: 'node-a', url: modern.url.href },
          { name: 'node-c', url: modern.url.href },
          { name: 'node-down', url: 'http://127.0.0.1:1/mcp' },
        ],
        timeoutMs: 3000,
      },
    });
    try {
      const { body } = await post(service, '/api/v1/fleet/check');
      expect(body.drift).toBe(false);
      expect(body.expected).toEqual(['2026-07-28']);
      expect(body.down).toEqual(['node-down']);
      const evaluated = await post(service, '/api/v1/alerts/evaluate');
      const firing = evaluated.body.alerts.filter((a: { state: string }) => a.state === 'firing').map((a: { fingerprint: string }) => a.fingerprint);
      expect(firing).toContain('fleet-node-unavailable:node:node-down');
      expect(firing).not.toContain('fleet-drift:fleet');
    } finally {
      await service.dispose();
    }
  });

  test('bad input to the fleet API answers 400 naming the field', async () => {
    const configured = await startTestService(new URL(upstream.origin), { fleet: { nodes: [{ name: 'node-a', url: modern.url.href }] } });
    const empty = await startTestService(new URL(upstream.origin));
    try {
      expect((await post(configured, '/api/v1/fleet/check', { nodes: ['nope'] })).body.error.parameter).toBe('nodes');
      expect((await post(configured, '/api/v1/fleet/check', { colour: 'red' })).body.error.parameter).toBe('colour');
      expect((await post(empty, '/api/v1/fleet/check')).status).toBe(400);
      expect((await empty.api('/api/v1/fleet')).body).toEqual({
        configured: [],
        checkedAt: null,
        expected: null,
        drift: false,
        down: [],
        nodes: [],
        // With no nodes to check, the sidecar itself is still listed from its flush.
        policyVersion: 0,
        sidecars: [{ node: 'test-node', kind: 'serve', lastFlushAt: expect.any(String), policyVersion: 0, stale: false, lagging: false }],
      });
    } finally {
      await configured.dispose();
      await empty.dispose();
    }
  });
});
