import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runV2Session } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

describe('SDK v2 modern-only server behind the sidecar', () => {
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

  test('a pinned v2 client is counted as modern, message by message', async () => {
    const summary = await runV2Session(new URL('/mcp', service.sidecarUrl), 'pin');
    expect(summary.sum).toBe('3');
    expect(await trafficTotals(service, 'method')).toEqual({ 'server/discover': 1, 'tools/list': 1, 'tools/call': 2 });
    expect(await trafficTotals(service, 'era')).toEqual({ modern: 4 });
    expect(await trafficTotals(service, 'outcome')).toEqual({ served: 4 });
    expect(await trafficTotals(service, 'version')).toEqual({ '2026-07-28': 4 });
    expect(await trafficTotals(service, 'reason')).toEqual({ 'modern-meta': 4 });
  });
});
