import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const TOKEN = 'remote-login-check-token';

describe('who is a legacy caller: served legacy work only', () => {
  let peer: Peer;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV2Server('modern');
    service = await startTestService(new URL(peer.origin));
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('a refused sessionless GET before modern work does not make the caller legacy', async () => {
    // What mcp-remote sends first, to learn whether a login is needed: a GET with no session.
    const probe = await rawRequest(new URL('/mcp', service.sidecarUrl), 'GET', ['Accept', 'text/event-stream', 'Authorization', `Bearer ${TOKEN}`]);
    expect(probe.status).toBeGreaterThanOrEqual(400);
    const summary = await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin', { token: TOKEN });
    expect(summary.sum).toBe('3');

    // The GET is filed as legacy and refused: the rule under test is what that filing may not do.
    expect(await trafficTotals(service, 'reason', { era: 'legacy' })).toEqual({ 'get-stream': 1 });
    expect(await trafficTotals(service, 'outcome', { era: 'legacy' })).toEqual({ 'client-error': 1 });

    const { body } = await service.api<{ integrations: { source: string; lastSeen: string | null; lastLegacySeen: string | null; legacyServed: number; served: number }[] }>('/api/v1/integrations');
    const caller = body.integrations.filter((i) => i.source === 'bearer-fingerprint');
    expect(caller).toHaveLength(1);
    expect(caller[0]).toMatchObject({ lastLegacySeen: null, legacyServed: 0, served: 3 });
    expect(caller[0]!.lastSeen).not.toBeNull();

    const share = await service.api<{ series: { legacyIntegrations: number | null }[] }>('/api/v1/share?bucket=day');
    expect(share.body.series.map((p) => p.legacyIntegrations ?? 0).reduce((a, b) => a + b, 0)).toBe(0);
  });
});
