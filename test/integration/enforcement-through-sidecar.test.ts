import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterEach, describe, expect, test } from 'vitest';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { brownoutNow, dayFromNow as day, errorOf, legacyPlan, POLICY_URL, sendPlan, v1HttpAdd, v2Add } from '../support/enforcement-peers.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const PARTNER_KEY = 'partner-key-0001';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function createPlan(service: TestService, plan: Record<string, unknown>): Promise<{ id: number }> {
  return sendPlan(service, 'POST', '/api/v1/plans', plan);
}

const identity = { order: ['static-map' as const], apiKeyHeader: 'x-api-key', staticMap: { [PARTNER_KEY]: 'partner-a' } };
const supported = { supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'] };

describe('enforcing a retirement plan on real SDK peers through the sidecar', () => {
  let peer: Peer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await peer?.close();
    service = undefined;
    peer = undefined;
  });

  test('in a brownout a v1 Streamable HTTP client is refused with the supported versions and the policy; an exempt partner passes', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { identity, enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    await createPlan(service, legacyPlan({ brownouts: brownoutNow(), exemptions: [{ integration: 'partner-a', until: day(30), note: 'migrating in Q1' }] }));
    expect(service.health().policy.enforcingPlans).toBe(1);

    const seenBefore = peer.seen.length;
    const refused = await errorOf(() => v1HttpAdd(url));
    expect(refused.message).toContain('-32022');
    expect(refused.message).toContain('supported versions: 2026-07-28');
    expect(refused.message).not.toMatch(/supported versions: [^.]*2025-11-25/);
    expect(refused.message).toContain(POLICY_URL);
    expect(refused.message).toContain('brownout');
    // Nothing of a refused request reaches the server.
    expect(peer.seen.slice(seenBefore).filter((r) => r.method === 'POST')).toEqual([]);

    expect(await v1HttpAdd(url, PARTNER_KEY)).toBe('3');

    const blocked = await trafficTotals(service, 'integration', { outcome: 'blocked' });
    expect(blocked).toEqual({ anonymous: 1 });
    expect(await trafficTotals(service, 'method', { outcome: 'blocked' })).toEqual({ initialize: 1 });
    const served = await trafficTotals(service, 'integration', { outcome: 'served', method: 'tools/call' });
    expect(served).toEqual({ 'partner-a': 1 });
  });

  test('announcement headers are on in-scope answers only, with the plan\'s dates', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const announceDate = day(-10);
    const retireDate = day(40);
    await createPlan(service, legacyPlan({ action: 'warn', announceDate, retireDate }));
    const url = new URL('/mcp', service.sidecarUrl);
    const initialize = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } }),
    });
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get('deprecation')).toBe(`@${Date.parse(`${announceDate}T00:00:00Z`) / 1000}`);
    expect(initialize.headers.get('sunset')).toBe(new Date(`${retireDate}T00:00:00Z`).toUTCString());
    expect(initialize.headers.get('link')).toBe(`<${POLICY_URL}>; rel="sunset"`);
    await initialize.text();

    const discover = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: MODERN_META } }),
    });
    expect(discover.status).toBe(200);
    expect(discover.headers.get('deprecation')).toBeNull();
    expect(discover.headers.get('sunset')).toBeNull();
    expect(discover.headers.get('link')).toBeNull();
    await discover.text();
    // warn refuses nothing.
    expect(await v1HttpAdd(url)).toBe('3');
  });

  test('after the cut a v1 client is refused while a v2 modern client is unaffected, and the share counts no refusal as served', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    expect(await v2Add(url)).toBe('3');
    await createPlan(service, legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));

    const refused = await errorOf(() => v1HttpAdd(url));
    expect(refused.message).toContain('is retired on this server');
    expect(refused.message).toContain('supported versions: 2026-07-28');
    expect(await v2Add(url)).toBe('3');

    expect(await trafficTotals(service, 'era', { outcome: 'blocked' })).toEqual({ legacy: 1 });
    const { body } = await service.api<{ series: { inScope: number; served: number }[] }>('/api/v1/share?bucket=day');
    const inScope = body.series.reduce((sum, p) => sum + p.inScope, 0);
    expect(inScope).toBe(0);
    expect(body.series.reduce((sum, p) => sum + p.served, 0)).toBe(2);
  });

  test('a dry run lets the refused-to-be traffic through and marks it would-block, on /metrics too', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    await createPlan(service, legacyPlan({ action: 'dryrun', retireDate: day(-1), announceDate: day(-30) }));
    expect(await v1HttpAdd(new URL('/mcp', service.sidecarUrl))).toBe('3');
    // initialize, the session's GET stream and tools/call would be refused; notifications and the DELETE pass.
    expect(await trafficTotals(service, 'outcome', { outcome: 'blocked' })).toEqual({});
    const metrics = await (await fetch(new URL('/metrics', service.apiUrl))).text();
    expect(metrics).toMatch(/^mcp_sunset_would_block_total 3$/m);
  });

  test('a modern request for a retired version gets 400 with -32022 listing only the versions still served, and the v2 client surfaces it', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    await createPlan(service, { name: 'Retire 2026-07-28', scope: { kind: 'version', value: '2026-07-28' }, announceDate: day(-30), retireDate: day(-1), policyUrl: POLICY_URL, action: 'deny', acknowledgeRefusingModern: true });
    const url = new URL('/mcp', service.sidecarUrl);
    const error = await errorOf(() => v2Add(url));
    expect(error.message).toMatch(/2025-11-25/);

    const raw = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: MODERN_META } }),
    });
    expect(raw.status).toBe(400);
    const body = (await raw.json()) as { id: number; error: { code: number; data: { supported: string[]; requested: string } } };
    expect(body.id).toBe(9);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data).toEqual({ supported: ['2025-11-25', '2025-06-18'], requested: '2026-07-28' });
    expect(raw.headers.get('sunset')).not.toBeNull();
  });

  test('HTTP+SSE: an open session is refused in a brownout with the versions named, and a new stream gets 410', async () => {
    peer = await startV1SseServer();
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const client = new V1Client(CLIENT_INFO);
    await client.connect(new V1SseTransport(new URL('/sse', service.sidecarUrl)));
    try {
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
      await createPlan(service, { name: 'Retire HTTP+SSE', scope: { kind: 'transport', value: 'http+sse' }, announceDate: day(-30), retireDate: day(30), policyUrl: POLICY_URL, action: 'deny', brownouts: brownoutNow() });
      const refused = await errorOf(() => client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }));
      expect(refused.message).toContain('HTTP 400');
      expect(refused.message).toContain('The HTTP+SSE transport');
      expect(refused.message).toContain('supported versions: 2026-07-28, 2025-11-25, 2025-06-18');
    } finally {
      await client.close();
    }
    const open = await fetch(new URL('/sse', service.sidecarUrl), { headers: { accept: 'text/event-stream' } });
    expect(open.status).toBe(410);
    const gone = (await open.json()) as { error: string; message: string; supported: string[]; policy: string };
    expect(gone).toMatchObject({ error: 'gone', policy: POLICY_URL });
    expect(gone.message).toContain('The HTTP+SSE transport');
    const fresh = await errorOf(() => new V1Client(CLIENT_INFO).connect(new V1SseTransport(new URL('/sse', service!.sidecarUrl))));
    expect(fresh.message).toContain('410');
    expect(await trafficTotals(service, 'method', { outcome: 'blocked' })).toEqual({ 'tools/call': 1, GET: 2 });
  });
});
