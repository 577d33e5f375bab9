import { afterEach, describe, expect, test } from 'vitest';
import { CLIENT_INFO } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV1SseServer } from '../peers/v1-sse-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { dayFromNow as day, legacyPlan, sendPlan, v1SseAdd } from '../support/enforcement-peers.js';
import { rawRequest, type RawResponse } from '../support/raw-request.js';
import { rawTarget } from '../support/raw-target.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/**
 * Requests an official SDK server would serve on its legacy path, sent past a cut. Each one must be
 * refused by the sidecar, never reach the server (its own log says so), and be counted as blocked.
 */
const supported = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const ACCEPT = 'application/json, text/event-stream';
const initialize = (id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
const toolsList = (params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params });

function post(url: URL, headers: string[], body: string | Buffer): Promise<RawResponse> {
  return rawRequest(url, 'POST', ['Accept', ACCEPT, ...headers], body);
}

const posts = (peer: Peer) => peer.seen.filter((r) => r.method === 'POST').length;

async function expectRefused(peer: Peer, send: () => Promise<{ status: number; text: string }>): Promise<void> {
  const before = posts(peer);
  const answer = await send();
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.text)).toMatchObject({ error: { code: -32022 } });
  expect(posts(peer)).toBe(before);
}
const asText = async (response: Promise<RawResponse>) => {
  const { status, body } = await response;
  return { status, text: body.toString() };
};

describe('past a cut, nothing the server would serve on its legacy path walks by', () => {
  let peer: Peer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await peer?.close();
    service = undefined;
    peer = undefined;
  });

  async function cut(): Promise<void> {
    await sendPlan(service!, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));
  }

  test('against the v2 dual-era server: Mcp-Method without a version header does not make a sessionless legacy call modern', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    // Without a plan the server serves it, on its legacy path.
    const served = await asText(post(url, ['Content-Type', 'application/json', 'Mcp-Method', 'tools/list'], toolsList()));
    expect(served.status).toBe(200);
    expect(served.text).toContain('"tools"');
    await cut();
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'application/json', 'Mcp-Method', 'tools/list'], toolsList())));
    expect(await trafficTotals(service, 'era', { outcome: 'blocked' })).toEqual({ legacy: 1 });
  });

  test('against the v1 session server: a legacy session\'s call is legacy whatever _meta version it carries, and so is an oversized body on it', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { enforcement: supported, maxBodyBytes: 4096 });
    const url = new URL('/mcp', service.sidecarUrl);
    const opened = await post(url, ['Content-Type', 'application/json'], initialize());
    expect(opened.status).toBe(200);
    const sessionId = opened.rawHeaders[opened.rawHeaders.findIndex((h) => h.toLowerCase() === 'mcp-session-id') + 1]!;
    const session = ['Content-Type', 'application/json', 'Mcp-Session-Id', sessionId, 'MCP-Protocol-Version', '2025-11-25'];
    // The server serves a call with any _meta version on its session.
    const anything = { _meta: { 'io.modelcontextprotocol/protocolVersion': 'anything' } };
    expect((await asText(post(url, session, toolsList(anything)))).text).toContain('"tools"');
    const modernMeta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    expect((await asText(post(url, [...session, 'Mcp-Method', 'tools/list'], toolsList(modernMeta)))).text).toContain('"tools"');
    await cut();
    await expectRefused(peer, () => asText(post(url, session, toolsList(anything))));
    await expectRefused(peer, () => asText(post(url, [...session, 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/list'], toolsList(modernMeta))));
    const padded = toolsList({ pad: 'x'.repeat(8192) });
    await expectRefused(peer, () => asText(post(url, session, padded)));
    expect(await trafficTotals(service, 'outcome', { outcome: 'blocked' })).toEqual({ blocked: 3 });
  });

  test('a body the sidecar does not read as JSON is judged legacy, whatever its headers claim: headers alone show nothing', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    await cut();
    for (const type of ['application/json-rpc', 'text/plain; x=application/json', 'application/x-unknown']) {
      await expectRefused(peer, () => asText(post(url, ['Content-Type', type], initialize())));
    }
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'application/json'], '{"jsonrpc":"2.0","id":1,"method":')));
    // The headers a modern request must carry do not make an unread body modern: a server that reads
    // it another way (another parser, another content type) could serve it on its legacy path.
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'text/plain', 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/list'], toolsList())));
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'application/json', 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/list'], '{"jsonrpc":"2.0","id":1,"method":')));
  });

  test.each(['v1', 'v2'] as const)('against the %s server: a body with a byte-order mark, or in a declared charset, is read as the server reads it', async (sdk) => {
    peer = sdk === 'v1' ? await startV1SessionServer() : await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(initialize())]);
    const utf16 = Buffer.from(initialize(), 'utf16le');
    // Before the cut: the server serves the marked body (and the v1 app's express.json() the UTF-16 one), and each is counted as the initialize it is.
    expect((await post(url, ['Content-Type', 'application/json'], bom)).status).toBe(200);
    expect((await post(url, ['Content-Type', 'application/json; charset=utf-16le'], utf16)).status).toBe(sdk === 'v1' ? 200 : 400);
    expect(await trafficTotals(service, 'method')).toEqual({ initialize: 2 });
    await cut();
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'application/json'], bom)));
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'application/json; charset=utf-16le'], utf16)));
    await expectRefused(peer, () => asText(post(url, ['Content-Type', 'application/json; charset="UTF-16LE"'], Buffer.concat([Buffer.from([0xff, 0xfe]), utf16]))));
  });

  test.each([
    // The v2 server answers an absolute-form target with a 500, so only the Express app shows that one.
    { sdk: 'v2', targets: ['/./mcp', '/x/../mcp', '/%2e/mcp', '/mcp#x'] },
    { sdk: 'v1', targets: ['/MCP', '/Mcp/', '/mcp#x', 'http://other.example/MCP/'] },
  ] as const)('against the $sdk server at /mcp: a request-target it routes to /mcp is judged there', async ({ sdk, targets: sent }) => {
    const targets: readonly string[] = sent;
    peer = sdk === 'v1' ? await startV1SessionServer() : await startV2Server('dual');
    service = await startTestService(new URL('/mcp', peer.origin), { enforcement: supported });
    const headers = ['Content-Type: application/json', `Accept: ${ACCEPT}`];
    // Each target reaches the server's /mcp: it serves the initialize, and the sidecar counts it there.
    for (const target of targets) expect((await rawTarget(service.sidecarUrl, 'POST', target, headers, initialize())).status).toBe(200);
    expect(await trafficTotals(service, 'method')).toEqual({ initialize: targets.length });
    await cut();
    for (const target of targets) await expectRefused(peer, () => rawTarget(service!.sidecarUrl, 'POST', target, headers, initialize()));
  });

  test('against the v1 HTTP+SSE server: a GET where streams open is a stream opening whatever its Accept or session header says', async () => {
    peer = await startV1SseServer({ basePath: '/base' });
    service = await startTestService(new URL(peer.origin), { enforcement: supported, httpSseStreamPaths: [] });
    const sse = new URL('/base/sse', service.sidecarUrl);
    // A real client opens the stream: the sidecar learns where HTTP+SSE streams open.
    expect(await v1SseAdd(sse)).toBe('3');
    const opened = await rawTarget(service.sidecarUrl, 'GET', '/base/sse', []);
    expect(opened.status).toBe(200);
    // Both openings are counted as what they opened, the Accept-less one too.
    await expect.poll(() => trafficTotals(service!, 'reason', { method: 'GET' })).toEqual({ 'sse-open': 2 });
    await sendPlan(service, 'POST', '/api/v1/plans', { name: 'Retire HTTP+SSE', scope: { kind: 'transport', value: 'http+sse' }, announceDate: day(-90), retireDate: day(-1), action: 'deny', policyUrl: 'https://example.com/sse-retirement' });
    const gets = () => peer!.seen.filter((r) => r.method === 'GET').length;
    const before = gets();
    // Express routes `/base/sse/` to the same stream as `/base/sse`: so is it judged.
    for (const [target, headers] of [['/BASE/sse', []], ['/base/sse', ['Mcp-Session-Id: any-session-id', 'Accept: text/event-stream']], ['/base/sse', ['Accept: */*']], ['/base/sse/', []]] as const) {
      const refused = await rawTarget(service.sidecarUrl, 'GET', target, [...headers]);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.text).toContain('HTTP+SSE transport is retired');
    }
    expect(gets()).toBe(before);
    expect(await trafficTotals(service, 'transport', { outcome: 'blocked' })).toEqual({ 'http+sse': 4 });
  });
});
