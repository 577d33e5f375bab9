import { randomBytes } from 'node:crypto';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { RELAY_HEADER, sealNodeRelay, type RelayKind } from '../../server/bridge/seal-node-relay.js';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { brownoutNow, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startRoundRobinBalancer } from '../support/round-robin-balancer.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const supported = { supportedVersions: ['2026-07-28', '2025-11-25'] };
const ACCEPT = 'application/json, text/event-stream';

function rpc(id: number, method: string, params: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
}

const TOOLS_CALL = rpc(7, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
const SUBSCRIBE = rpc(8, 'resources/subscribe', { uri: 'demo://counter' });

/** Opens a bridged session with a raw initialize; answers its session id. */
async function openSession(url: URL, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
  });
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

async function post(url: URL, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2025-11-25', ...headers }, body });
  return { status: response.status, text: await response.text() };
}

function seal(ring: BridgeKeyRing, kind: RelayKind, body: Buffer, token: string, at = Date.now(), target = '/mcp'): string {
  return sealNodeRelay(ring, { kind, method: 'POST', target, body, token, caller: '' }, at);
}

describe('a relay seal is no skeleton key: it is taken only for the request a node sealed, once, under a key in force', () => {
  const key = randomBytes(32);
  const retired = randomBytes(32);
  const ring = new BridgeKeyRing(key);
  const retiredRing = new BridgeKeyRing(retired);
  let modern: Peer;
  let service: TestService;
  let url: URL;
  let token: string;

  beforeAll(async () => {
    modern = await startV2Server('modern', { surface: 'bridge' });
    service = await startTestService(modern.url, {
      enforcement: supported,
      bridge: { enabled: true, key: key.toString('hex'), previousKeys: [{ key: retired.toString('hex'), acceptedUntil: new Date(Date.now() - 60_000).toISOString() }] },
    });
    url = new URL('/mcp', service.sidecarUrl);
    token = await openSession(url);
    await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ name: 'Brown out the legacy era', brownouts: brownoutNow() }));
  }, 30_000);
  afterAll(async () => {
    await service?.dispose();
    await modern?.close();
  });

  it('a seal made for another body, kind or time, or under a retired key, leaves the request a client\'s own: refused by the plan, counted, and never at the server', async () => {
    const before = await trafficTotals(service, 'outcome', { era: 'legacy' });
    const seenBefore = modern.seen.length;
    const attempts = [
      seal(ring, 'subscribe', SUBSCRIBE, token), // sealed for another body
      seal(ring, 'answer', TOOLS_CALL, token, Date.now() - 120_000), // outside its window
      seal(retiredRing, 'answer', TOOLS_CALL, token), // under a key past its acceptedUntil
      seal(ring, 'answer', TOOLS_CALL, token, Date.now(), '/mcp/../echo'), // for another target
      'r2.answer.0.e30.forged',
    ];
    for (const header of attempts) {
      const answer = await post(url, TOOLS_CALL, { 'mcp-session-id': token, [RELAY_HEADER]: header });
      expect(answer.text).toContain('-32022');
    }
    expect(modern.seen.length).toBe(seenBefore);
    const after = await trafficTotals(service, 'outcome', { era: 'legacy' });
    expect((after.blocked ?? 0) - (before.blocked ?? 0)).toBe(attempts.length);
    const health = (await (await fetch(new URL('/healthz', service.apiUrl))).json()) as { bridge: { relaysRefused: number } };
    expect(health.bridge.relaysRefused).toBeGreaterThanOrEqual(attempts.length);
  });

  it('a genuine seal is taken only for the kind of message it is for, and only once', async () => {
    const seenBefore = modern.seen.length;
    // Sealed for this very tools/call, but as an answer: a relay of an answer carries no tools/call.
    const wrongKind = await post(url, TOOLS_CALL, { 'mcp-session-id': token, [RELAY_HEADER]: seal(ring, 'answer', TOOLS_CALL, token) });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.text).toContain('a answer relay cannot carry a other');
    expect(modern.seen.length).toBe(seenBefore);

    const header = seal(ring, 'subscribe', SUBSCRIBE, token);
    const first = await post(url, SUBSCRIBE, { 'mcp-session-id': token, [RELAY_HEADER]: header });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    // The same bytes again are a replay: a client's own request, which the plan refuses.
    const replay = await post(url, SUBSCRIBE, { 'mcp-session-id': token, [RELAY_HEADER]: header });
    expect(replay.text).toContain('-32022');
  });
});

describe('the relay header is the nodes\' own: no server ever sees one', () => {
  let upstream: RawUpstream;
  let service: TestService;
  const seen: (string | undefined)[] = [];

  beforeAll(async () => {
    upstream = await startRawUpstream((req, res) => {
      seen.push(req.headers[RELAY_HEADER] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: req.headers }));
    });
    service = await startTestService(new URL('/mcp', upstream.origin), { bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  it('is dropped from what is passed on, on MCP and non-MCP paths alike', async () => {
    for (const path of ['/echo', '/mcp', '/mcp/../echo']) {
      const response = await fetch(new URL(path, service.sidecarUrl), { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', [RELAY_HEADER]: 'r2.answer.1.e30.x' }, body: rpc(1, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }) });
      expect(JSON.stringify(await response.json())).not.toContain(RELAY_HEADER);
    }
    expect(seen.length).toBe(3);
    expect(seen.every((value) => value === undefined)).toBe(true);
  });
});

describe('relays go only where the fleet sealed, one hop, never after a redirect', () => {
  const key = randomBytes(32).toString('hex');
  let modern: Peer;
  let redirector: RawUpstream;
  let elsewhere: RawUpstream;
  const reachedElsewhere: string[] = [];
  let nodes: TestService[] = [];

  beforeAll(async () => {
    modern = await startV2Server('modern', { surface: 'bridge' });
    elsewhere = await startRawUpstream((req, res) => {
      reachedElsewhere.push(`${req.method} ${req.url} ${String(req.headers[RELAY_HEADER])}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":8,"result":{}}');
    });
    redirector = await startRawUpstream((_req, res) => res.writeHead(307, { location: `${elsewhere.origin}/steal` }).end());
    const bridge = (nodeUrl?: string) => ({ bridge: { enabled: true, key, ...(nodeUrl === undefined ? {} : { nodeUrl }) } });
    // `misled` calls itself by a URL that is not its own; `looped` puts misled's real address in its sessions.
    const misled = await startTestService(modern.url, bridge('http://127.0.0.1:9'));
    const [redirected, looped, landing] = await Promise.all([
      startTestService(modern.url, bridge(redirector.origin)),
      startTestService(modern.url, bridge(misled.sidecarUrl.origin)),
      startTestService(modern.url, bridge()),
    ]);
    nodes = [misled, redirected!, looped!, landing!];
  }, 30_000);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.dispose()));
    await Promise.all([modern?.close(), redirector?.close(), elsewhere?.close()]);
  });

  it('a node whose URL answers with a redirect gets nothing more: the relay is not followed, the client is told 502', async () => {
    const [, redirected, , landing] = nodes as [TestService, TestService, TestService, TestService];
    const token = await openSession(new URL('/mcp', redirected.sidecarUrl), { authorization: 'Bearer secret' });
    const answer = await post(new URL('/mcp', landing.sidecarUrl), SUBSCRIBE, { 'mcp-session-id': token, authorization: 'Bearer secret' });
    expect(answer.status).toBe(502);
    expect(answer.text).toContain('redirect, which is not followed');
    expect(reachedElsewhere).toEqual([]);
  });

  it('a relay that would be relayed again is refused: the loop ends after one hop', async () => {
    const [misled, , looped, landing] = nodes as [TestService, TestService, TestService, TestService];
    const seenBefore = modern.seen.length;
    const countedBefore = (await trafficTotals(landing, 'method', { method: 'resources/subscribe' }))['resources/subscribe'] ?? 0;
    // Sealed with misled's real address as its home, which misled does not take as its own.
    const token = await openSession(new URL('/mcp', looped.sidecarUrl));
    const answer = await post(new URL('/mcp', landing.sidecarUrl), SUBSCRIBE, { 'mcp-session-id': token });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('a relayed request is not relayed again');
    // Counted once, where it landed; the node it reached neither gated nor counted it.
    expect((await trafficTotals(landing, 'method', { method: 'resources/subscribe' }))['resources/subscribe']).toBe(countedBefore + 1);
    expect(await trafficTotals(misled, 'method', { method: 'resources/subscribe' })).toEqual({});
    // The initialize's discovery reached the server; the relayed subscription did not.
    expect(modern.seen.length).toBe(seenBefore + 1);
  });
});

describe('an HTTP+SSE message relayed to the node holding its stream keeps its caller', () => {
  const key = randomBytes(32).toString('hex');
  const API_KEY = randomBytes(12).toString('hex');
  let modern: Awaited<ReturnType<typeof startV2Server>>;
  let nodes: TestService[] = [];

  beforeAll(async () => {
    modern = await startV2Server('modern', { surface: 'bridge' });
    // Named by the operator's map, the same on every node (a token's fingerprint is keyed per install, and a fleet shares one store).
    nodes = await Promise.all([0, 1].map(() => startTestService(modern.url, { bridge: { enabled: true, key }, identity: { staticMap: { [API_KEY]: 'partner-co' } } })));
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.dispose()));
    await modern?.close();
  });

  it('an SDK v1 client with an API key and a bearer token, its stream on one node and its posts on both: every message counted under its name, and the server sees the token on each', async () => {
    const balancer = await startRoundRobinBalancer(nodes.map((node) => node.sidecarUrl), '/sse');
    const authorization = `Bearer ${randomBytes(12).toString('hex')}`;
    modern.seen.length = 0;
    const client = new V1Client(CLIENT_INFO);
    const transport = new V1SseTransport(balancer.url, {
      requestInit: { headers: { authorization, 'x-api-key': API_KEY } },
      eventSourceInit: { fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization, 'x-api-key': API_KEY } }) },
    });
    try {
      await client.connect(transport);
      for (let i = 0; i < 4; i += 1) expect(textOf(await client.callTool({ name: 'add', arguments: { a: i, b: 1 } }))).toBe(String(i + 1));
    } finally {
      await client.close();
      await balancer.close();
    }
    // Posts landed on both nodes, so some were relayed to the node holding the stream.
    expect(Math.min(...balancer.served)).toBeGreaterThan(1);
    const byCaller = [await trafficTotals(nodes[0]!, 'integration'), await trafficTotals(nodes[1]!, 'integration')];
    const callers = new Set(byCaller.flatMap((totals) => Object.keys(totals)));
    expect([...callers]).toEqual(['partner-co']);
    const counted = byCaller.reduce((sum, totals) => sum + Object.values(totals).reduce((a, b) => a + b, 0), 0);
    // The stream's opening, initialize, initialized, and the four calls: each counted once.
    expect(counted).toBe(balancer.bodies.length);
    expect(modern.seen.length).toBeGreaterThan(0);
    expect(modern.seen.every((request) => request.authorization === authorization)).toBe(true);
  });
});
