import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { CLIENT_INFO } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { dayFromNow as day, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { rawRequest } from '../support/raw-request.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';
import { rawTarget } from '../support/raw-target.js';

/**
 * The request judged is the request forwarded. Each example is a way past a cut that a server
 * stack behind the sidecar would serve: under the cut it is refused, the server's own log shows it
 * never arrived, and it is counted blocked.
 */
const supported = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const ACCEPT = 'application/json, text/event-stream';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN_HEADERS = ['MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/list'];
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
const modernList = (id = 2) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } });

const posts = (peer: Peer) => peer.seen.filter((r) => r.method === 'POST').length;
const post = (url: URL, headers: string[], body: string | Buffer) => rawRequest(url, 'POST', ['Accept', ACCEPT, 'Content-Type', 'application/json', ...headers], body);

describe('a cut judges the request the server will receive', () => {
  let peer: Peer | undefined;
  let upstream: RawUpstream | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await peer?.close();
    await upstream?.close();
    service = undefined;
    peer = undefined;
    upstream = undefined;
  });

  const cut = () => sendPlan(service!, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1) }));

  async function refusedUnseen(send: () => Promise<{ status: number; body: Buffer }>): Promise<string> {
    const before = posts(peer!);
    const answer = await send();
    expect(answer.status).toBe(400);
    const error = (JSON.parse(answer.body.toString()) as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(-32022);
    expect(posts(peer!)).toBe(before);
    return error.message;
  }

  test('against the v2 dual-era server: version headers a Connection header names are not forwarded, so they show nothing', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    await cut();
    // With its headers forwarded, the modern request is served under the cut…
    expect((await post(url, MODERN_HEADERS, modernList())).status).toBe(200);
    // …but listed in Connection, the server would get the body alone and serve it on its legacy path.
    for (const list of ['mcp-protocol-version, mcp-method', 'Keep-Alive, MCP-Protocol-Version', 'mcp-method']) {
      await refusedUnseen(() => post(url, [...MODERN_HEADERS, 'Connection', list], modernList(3)));
    }
    expect(await trafficTotals(service, 'era', { outcome: 'blocked' })).toEqual({ legacy: 3 });
  });

  test('against the v1 session server: a gzip-compressed body is read as express.json() inflates it, counted as what it is and refused under the cut', async () => {
    peer = await startV1SessionServer();
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    const gzipped = gzipSync(Buffer.from(initialize));
    // Before the cut the app inflates and serves it, and the sidecar counts the initialize inside.
    expect((await post(url, ['Content-Encoding', 'gzip'], gzipped)).status).toBe(200);
    expect(await trafficTotals(service, 'method')).toEqual({ initialize: 1 });
    await cut();
    // Dressed in a modern request's headers, it is still the legacy initialize the server would serve.
    await refusedUnseen(() => post(url, ['Content-Encoding', 'gzip', ...MODERN_HEADERS], gzipped));
    // A coding the sidecar cannot undo shows nothing, whatever the headers say.
    const message = await refusedUnseen(() => post(url, ['Content-Encoding', 'zstd', ...MODERN_HEADERS], gzipped));
    expect(message).toContain('could not be shown to be modern: its Content-Encoding could not be undone');
    // A bomb: inflating past the body limit stops there, and is refused as unreadable.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    await refusedUnseen(() => post(url, ['Content-Encoding', 'gzip', ...MODERN_HEADERS], bomb));
    expect(await trafficTotals(service, 'reason', { outcome: 'blocked' })).toEqual({ initialize: 1, 'unsupported-content-encoding': 2 });
  });

  test('against the v2 dual-era server: a body whose JSON repeats a key is not shown modern by the reading that keeps the last one', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    await cut();
    const legacyMeta = JSON.stringify({ ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' });
    const twice = `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":${legacyMeta},"_meta":${JSON.stringify(META)}}}`;
    const message = await refusedUnseen(() => post(url, MODERN_HEADERS, twice));
    expect(message).toContain('repeats a key');
    // Spelled with an escape, the key is still the same key.
    await refusedUnseen(() => post(url, MODERN_HEADERS, twice.replace('"_meta":{"io', '"_\\u006deta":{"io')));
    expect(await trafficTotals(service, 'reason', { outcome: 'blocked' })).toEqual({ 'ambiguous-json': 2 });
  });

  test('against the v2 dual-era server: a batch of 100,000 messages is one message, refused with one small answer', async () => {
    peer = await startV2Server('dual');
    service = await startTestService(new URL(peer.origin), { enforcement: supported });
    const url = new URL('/mcp', service.sidecarUrl);
    await cut();
    // Within the SDK servers' 4 MiB body limit, as the sidecar's default maxBodyBytes is.
    const batch = `[${Array.from({ length: 100_000 }, () => '{"jsonrpc":"2.0","method":"ping"}').join(',')}]`;
    const before = posts(peer);
    const answer = await post(url, [], batch);
    expect(answer.status).toBe(400);
    expect(answer.body.length).toBeLessThan(1024);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ id: null, error: { code: -32022 } });
    expect(posts(peer)).toBe(before);
    expect(await trafficTotals(service, 'reason', { outcome: 'blocked' })).toEqual({ 'batch-too-large': 1 });
  });

  test('under a cut, paths the operator declares non-MCP pass untouched and are counted apart; everything else under the prefix is judged', async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    service = await startTestService(new URL(upstream.origin), { enforcement: supported, nonMcpPaths: ['/token', '/register/'] });
    await cut();
    const form = ['Content-Type: application/x-www-form-urlencoded'];
    for (const target of ['/token', '/TOKEN', '/register', '/register/client-1', '/x/../token']) {
      expect((await rawTarget(service.sidecarUrl, 'POST', target, form, 'grant_type=refresh_token&refresh_token=r')).status).toBe(200);
    }
    // Not declared: a POST anywhere else under the prefix is MCP to the sidecar, and this one is not shown modern.
    for (const target of ['/tokens', '/mcp']) expect((await rawTarget(service.sidecarUrl, 'POST', target, form, 'grant_type=x')).status).toBe(400);
    expect(upstream.received.map((r) => r.url)).toEqual(['/token', '/TOKEN', '/register', '/register/client-1', '/token']);
    expect(service.health()).toMatchObject({ metering: { nonMcpRequests: 5 } });
    expect(await trafficTotals(service, 'outcome')).toEqual({ blocked: 2 });
  });

  test('the target forwarded is the target placed: dot segments, unreserved escapes and the prefix\'s case as the server writes it', async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    service = await startTestService(new URL('/mcp', upstream.origin), { enforcement: supported });
    const headers = ['Content-Type: application/json', `Accept: ${ACCEPT}`];
    const sent = ['/mcp', '/%6Dcp', '/%6d%63%70?x=%41', '/MCP', '/x/../mcp', '/mcp/tools', '/other/%7Epath'];
    for (const target of sent) expect((await rawTarget(service.sidecarUrl, 'POST', target, headers, modernList())).status).toBe(200);
    expect(upstream.received.map((r) => r.url)).toEqual(['/mcp', '/mcp', '/mcp?x=%41', '/mcp', '/mcp', '/mcp/tools', '/other/~path']);
  });
});
