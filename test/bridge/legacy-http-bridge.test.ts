import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { createLegacyHttpBridge, type LegacyHttpBridge } from '../../server/bridge/legacy-http-bridge.js';
import { sealBridgeSession } from '../../server/bridge/seal-bridge-session.js';
import { INTERNAL_ERROR, SESSION_NOT_FOUND } from '../../server/protocol/error-codes.js';
import { FIRST_MODERN_VERSION, HEADER } from '../../server/protocol/versions.js';
import { CLIENT_INFO, runV1CountWithProgress, runV1HttpSession } from '../peers/clients.js';
import { listenPeer, type Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { answerOf } from '../support/answer-of.js';
import { startRawUpstream } from '../support/raw-upstream.js';

const HOUR = 3_600_000;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves at /mcp, each request by the next handler in turn: a round-robin balancer in front of bridge nodes. */
async function listenRoundRobin(handlers: Handler[]): Promise<Peer & { served: number[] }> {
  const served = handlers.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const index = next++ % handlers.length;
    served[index]! += 1;
    handlers[index]!(req, res);
  });
  return { ...(await listenPeer(server, '/mcp', [])), served };
}

describe('the legacy HTTP bridge in front of a modern-only SDK v2 server', () => {
  const secret = randomBytes(32);
  let modern: Peer;
  let dual: Peer;
  let bridges: Peer & { served: number[] };
  let single: Peer & { served: number[] };
  let nodes: LegacyHttpBridge[];
  const node = () => createLegacyHttpBridge({ upstream: modern.url, ring: new BridgeKeyRing(Buffer.from(secret)), sessionTtlMs: 24 * HOUR, maxBodyBytes: 4 << 20, now: () => now });
  let now = Date.UTC(2026, 11, 2, 12);

  beforeAll(async () => {
    [modern, dual] = await Promise.all([startV2Server('modern'), startV2Server('dual')]);
    // Two bridge nodes that share nothing but the key, each with its own ring built from it.
    nodes = [node(), node()];
    bridges = await listenRoundRobin(nodes.map((bridge) => bridge.handle));
    single = await listenRoundRobin([nodes[0]!.handle]);
  });
  afterAll(async () => {
    await Promise.all([bridges?.close(), single?.close(), modern?.close(), dual?.close()]);
  });

  it('an SDK v1 client lists and calls tools, served by the modern server, with the results a dual-era server gives it', async () => {
    const before = [...bridges.served];
    modern.seen.length = 0;
    const bridged = await runV1HttpSession(bridges.url);
    const direct = await runV1HttpSession(dual.url);
    expect(bridged.toolNames).toEqual(direct.toolNames);
    expect(bridged.sum).toBe(direct.sum);
    // The demo tools tag the era that served them: the legacy client was served on the modern path.
    expect(direct.echo).toBe('hi era=legacy');
    expect(bridged.echo).toBe('hi era=modern');
    // The modern server saw only modern requests: no handshake, no session stream, no DELETE.
    expect(modern.seen.length).toBeGreaterThan(0);
    expect(modern.seen.every((r) => r.method === 'POST' && r.protocolVersion === FIRST_MODERN_VERSION)).toBe(true);
    // Both bridge nodes served requests of that one session.
    expect(bridges.served[0]! - before[0]!).toBeGreaterThan(1);
    expect(bridges.served[1]! - before[1]!).toBeGreaterThan(1);
  });

  it('progress notifications reach the v1 client through the bridge, before the result', async () => {
    const progress: number[] = [];
    const outcome = await runV1CountWithProgress(bridges.url, 3, 20, (value) => progress.push(value));
    expect(progress).toEqual([1, 2, 3]);
    expect(outcome.text).toMatch(/3/);
  });

  it('a cancel from the v1 client closes the request the bridge opened for it on the modern server', async () => {
    const client = new V1Client(CLIENT_INFO);
    const transport = new V1HttpTransport(single.url);
    await client.connect(transport);
    try {
      const abort = new AbortController();
      // 200 steps 50 ms apart: the tool would run for 10 s; the client gives up after the first step.
      const call = client.callTool({ name: 'count', arguments: { steps: 200, delayMs: 50 } }, undefined, {
        signal: abort.signal,
        onprogress: () => abort.abort('enough'),
      });
      await expect(call).rejects.toThrow();
      await vi.waitFor(() => expect(nodes[0]!.inFlight()).toBe(0), { timeout: 5_000, interval: 20 });
    } finally {
      await client.close();
    }
  });

  it('an upstream answer that is not JSON-RPC (an error page) reaches the legacy client as a JSON-RPC error, not as a hang or a bare page', async () => {
    const page = await startRawUpstream((_req, res) => void res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    const bridge = createLegacyHttpBridge({ upstream: new URL('/mcp', page.origin), ring: new BridgeKeyRing(secret), sessionTtlMs: HOUR, maxBodyBytes: 1 << 20, now: () => now });
    const front = await listenRoundRobin([bridge.handle]);
    try {
      const sealed = sealBridgeSession(new BridgeKeyRing(secret), { id: 's2', version: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, issuedAt: now, expiresAt: now + HOUR });
      if (!sealed.ok) throw new Error('not sealed');
      const response = await fetch(front.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', [HEADER.sessionId]: sealed.token },
        body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
      });
      expect(response.status).toBe(502);
      expect(await answerOf(response)).toMatchObject({ id: 5, error: { code: INTERNAL_ERROR } });
      // Initialize, too, fails with an error the client can read when discovery gets no answer.
      const init = await fetch(front.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
      });
      expect(init.status).toBe(502);
      expect(await answerOf(init)).toMatchObject({ id: 1, error: { code: INTERNAL_ERROR } });
    } finally {
      await Promise.all([front.close(), page.close()]);
    }
  });

  describe('session ids it did not issue, or no longer honours', () => {
    const post = (token: string | undefined) =>
      fetch(bridges.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token === undefined ? {} : { [HEADER.sessionId]: token }) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const session = (expiresAt: number) => ({ id: 's1', version: '2025-11-25', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, issuedAt: now, expiresAt });
    const sealWith = (ring: BridgeKeyRing, expiresAt: number) => {
      const sealed = sealBridgeSession(ring, session(expiresAt));
      if (!sealed.ok) throw new Error('not sealed');
      return sealed.token;
    };

    it('a genuine one is served', async () => {
      const response = await post(sealWith(new BridgeKeyRing(secret), now + HOUR));
      expect(response.status).toBe(200);
      expect((await answerOf(response)).result?.tools).toBeDefined();
    });

    it.each([
      ['forged (sealed under another key)', () => sealWith(new BridgeKeyRing(randomBytes(32)), now + HOUR), 'unknown-key'],
      ['tampered', () => sealWith(new BridgeKeyRing(secret), now + HOUR).replace(/\.([^.])/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`), 'unknown-key'],
      ['expired', () => sealWith(new BridgeKeyRing(secret), now - 1), 'expired'],
      ['made up', () => 'c2Vzc2lvbg', 'malformed'],
    ])('%s: 404 with session-not-found, so the client starts a new session', async (_name, token, reason) => {
      const response = await post(token());
      expect(response.status).toBe(404);
      const answer = await answerOf(response);
      expect(answer.error?.code).toBe(SESSION_NOT_FOUND);
      expect(answer.error?.message).toContain(reason);
    });

    it('none at all, after initialize: 400', async () => {
      expect((await post(undefined)).status).toBe(400);
    });
  });
});
