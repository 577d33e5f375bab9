import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const CALLS = 6;

/** A legacy client that opens a session per call: initialize, one tools/call, then the DELETE. */
async function legacyCallPerSession(url: URL): Promise<string> {
  const client = new V1Client(CLIENT_INFO);
  const transport = new V1HttpTransport(url);
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await transport.terminateSession();
    return textOf(result);
  } finally {
    await client.close();
  }
}

/** A modern client pinned to 2026-07-28 that discovers once and then calls `calls` times. */
async function modernCalls(url: URL, calls: number): Promise<string[]> {
  const client = new V2Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new V2HttpTransport(url));
  try {
    const texts: string[] = [];
    for (let i = 0; i < calls; i += 1) texts.push(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })));
    return texts;
  } finally {
    await client.close();
  }
}

interface ShareBody {
  basis: string;
  currentShare: number | null;
  series: { served: number; inScope: number; negotiation: number }[];
}

describe('the share basis, with real peers through the sidecar', () => {
  let peer: Peer;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin));
    const url = new URL('/mcp', service.sidecarUrl);
    for (let i = 0; i < CALLS; i += 1) expect(await legacyCallPerSession(url)).toBe('3');
    expect(await modernCalls(url, CALLS)).toEqual(Array(CALLS).fill('3'));
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('the same work on both eras is a work share of exactly one half, however often each negotiates', async () => {
    expect(await trafficTotals(service, 'era', { method: 'tools/call', outcome: 'served' })).toEqual({ legacy: CALLS, modern: CALLS });
    const { status, body } = await service.api<ShareBody>('/api/v1/share?bucket=week');
    expect(status).toBe(200);
    expect(body.basis).toBe('work-requests');
    expect(body.currentShare).toBe(0.5);
    // The handshakes are shown beside the curve: one initialize per legacy session, one discover.
    const negotiation = await trafficTotals(service, 'method', { method: 'initialize', outcome: 'served' });
    const discover = await trafficTotals(service, 'method', { method: 'server/discover', outcome: 'served' });
    expect(body.series.reduce((sum, p) => sum + p.negotiation, 0)).toBe((negotiation.initialize ?? 0) + (discover['server/discover'] ?? 0));
    expect(negotiation.initialize).toBe(CALLS);
  });

  test('on all requests the same traffic gives the share its negotiation habits make it', async () => {
    const { body } = await service.api<ShareBody>('/api/v1/share?bucket=week&basis=all-requests');
    expect(body.basis).toBe('all-requests');
    const served = { outcome: 'served', kind: 'request' };
    const legacy = Object.values(await trafficTotals(service, 'method', { ...served, era: 'legacy' })).reduce((a, b) => a + b, 0);
    const all = Object.values(await trafficTotals(service, 'method', served)).reduce((a, b) => a + b, 0);
    expect(body.currentShare).toBe(legacy / all);
    expect(body.currentShare).not.toBe(0.5);
  });

  test('an unknown basis is refused with a 400 naming the field', async () => {
    const { status, body } = await service.api<{ error: { parameter?: string } }>('/api/v1/share?basis=sessions');
    expect(status).toBe(400);
    expect(body.error.parameter).toBe('basis');
  });
});
