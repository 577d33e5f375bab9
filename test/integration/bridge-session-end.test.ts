import { randomBytes } from 'node:crypto';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const ACCEPT = 'application/json, text/event-stream';

/**
 * An SDK v1 HTTP+SSE client through the service, with the message endpoint it was given and a
 * promise that its first stream ended (the client opens another one itself, as EventSource does).
 */
async function connectSse(service: TestService) {
  const posted: string[] = [];
  let ended!: () => void;
  const closed = new Promise<void>((resolve) => {
    ended = resolve;
  });
  let streams = 0;
  const client = new V1Client(CLIENT_INFO);
  const transport = new V1SseTransport(new URL('/sse', service.sidecarUrl), {
    fetch: (input, init) => {
      posted.push(String(input));
      return fetch(input, init);
    },
    eventSourceInit: {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (streams++ > 0 || response.body === null) return response;
        const watched = response.body.pipeThrough(new TransformStream({ flush: () => ended() }));
        return new Response(watched, { status: response.status, headers: response.headers });
      },
    },
  });
  await client.connect(transport);
  return { client, closed, endpoint: () => new URL(posted.find((url) => url.includes('/messages'))!) };
}

/** A session's standalone stream, read until it ends. */
async function openListen(service: TestService, token: string) {
  const response = await fetch(new URL('/mcp', service.sidecarUrl), { headers: { accept: 'text/event-stream', 'mcp-session-id': token, 'mcp-protocol-version': '2025-11-25' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return;
  })();
  return { ended };
}

async function openSession(service: TestService): Promise<string> {
  const response = await fetch(new URL('/mcp', service.sidecarUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

async function bridgeHealth(service: TestService): Promise<{ channels: number; listens: number; revocations: { known: boolean } }> {
  return ((await (await fetch(new URL('/healthz', service.apiUrl))).json()) as { bridge: { channels: number; listens: number; revocations: { known: boolean } } }).bridge;
}

async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('expiry and revocation reach open HTTP+SSE channels and standalone streams', () => {
  let modern: Peer | undefined;
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.dispose();
    await modern?.close();
    service = undefined;
    modern = undefined;
  });

  it('a channel revoked by the token in its message URL is closed at once, and its endpoint then refused; other channels go on', async () => {
    modern = await startV2Server('modern', { surface: 'bridge' });
    service = await startTestService(modern.url, { bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
    const [doomed, spared] = await Promise.all([connectSse(service), connectSse(service)]);
    try {
      expect(textOf(await doomed.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');
      const channel = doomed.endpoint().searchParams.get('bridge')!;
      const bare = await fetch(new URL('/api/v1/bridge/revocations', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: channel }) });
      expect(bare.status).toBe(400);
      expect(((await bare.json()) as { error: { message: string } }).error.message).toMatch(/^expiresAt: required with a channel token/);
      const revoked = await fetch(new URL('/api/v1/bridge/revocations', service.apiUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: channel, expiresAt: new Date(Date.now() + 86_400_000).toISOString(), reason: 'shared laptop' }),
      });
      expect(revoked.status).toBe(201);
      // The API's answer waits for this node to read the revocation, and reading it ends what is open.
      await doomed.closed;
      const late = await fetch(doomed.endpoint(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) });
      expect(late.status).toBe(404);
      expect(textOf(await spared.client.callTool({ name: 'add', arguments: { a: 2, b: 2 } }))).toBe('4');
    } finally {
      await Promise.all([doomed.client.close(), spared.client.close()]);
    }
  });

  it('a standalone stream of a revoked session ends within the refresh interval, and is refused when opened again', async () => {
    modern = await startV2Server('modern', { surface: 'bridge' });
    service = await startTestService(modern.url, { bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
    const token = await openSession(service);
    const listen = await openListen(service, token);
    await until(async () => (await bridgeHealth(service!)).listens === 1);
    const revoked = await fetch(new URL('/api/v1/bridge/revocations', service.apiUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: token }) });
    expect(revoked.status).toBe(201);
    await listen.ended;
    expect((await bridgeHealth(service)).listens).toBe(0);
    const again = await fetch(new URL('/mcp', service.sidecarUrl), { headers: { accept: 'text/event-stream', 'mcp-session-id': token } });
    expect(again.status).toBe(404);
    expect(await again.text()).toContain('revoked');
  });

  it('past bridge.sessionTtlMs, a channel and a standalone stream end by themselves', async () => {
    modern = await startV2Server('modern', { surface: 'bridge' });
    service = await startTestService(modern.url, { bridge: { enabled: true, key: randomBytes(32).toString('hex'), sessionTtlMs: 1_500, revocationRefreshMs: 100 } });
    const sse = await connectSse(service);
    const listen = await openListen(service, await openSession(service));
    try {
      expect(textOf(await sse.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
      const opened = Date.now();
      await Promise.all([sse.closed, listen.ended]);
      // Not before the session's expiry.
      expect(Date.now() - opened).toBeGreaterThan(1_000);
      // The client may open a new channel by itself, but holds no session on it: no listen is left.
      expect((await bridgeHealth(service)).listens).toBe(0);
    } finally {
      await sse.client.close();
    }
  });
});

describe('a bridge node that cannot read the revoked sessions honours none', () => {
  it('at start, with its store out of reach: initialize is refused with 503 saying why, and /healthz is degraded', async () => {
    const modern = await startV2Server('modern', { surface: 'bridge' });
    // A database under a file, not a directory: it cannot be opened, and the node runs without a store.
    const service = await startTestService(modern.url, { bridge: { enabled: true, key: randomBytes(32).toString('hex') }, db: '/dev/null/sunset.db' });
    try {
      const response = await fetch(new URL('/mcp', service.sidecarUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('the revoked sessions cannot be read');
      const health = (await (await fetch(new URL('/healthz', service.apiUrl))).json()) as { status: string; reason: string; bridge: { revocations: { known: boolean } } };
      expect(health.status).toBe('degraded');
      expect(health.bridge.revocations.known).toBe(false);
      expect(modern.seen.length).toBe(0);
    } finally {
      await service.dispose();
      await modern.close();
    }
  });
});
