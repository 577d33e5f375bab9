import { describe, expect, test } from 'vitest';
import {
  captureV1ConnectError,
  runV1CountWithProgress,
  runV1HttpSession,
  runV1SseSession,
  runV2CountWithProgress,
  runV2Session,
  type CountOutcome,
  type ProgressListener,
} from './clients.js';
import type { Peer } from './listen-peer.js';
import { startV1SessionServer } from './v1-session-server.js';
import { startV1SseServer } from './v1-sse-server.js';
import { startV2Server } from './v2-server.js';

const TOOL_NAMES = ['add', 'count', 'echo'];

async function withPeer<T>(start: () => Promise<Peer>, use: (peer: Peer) => Promise<T>): Promise<T> {
  const peer = await start();
  try {
    return await use(peer);
  } finally {
    await peer.close();
  }
}

function methodsSeen(peer: Peer): string[] {
  return [...new Set(peer.seen.map((r) => r.method))].sort();
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('v1 session server (legacy Streamable HTTP with sessions)', () => {
  test('serves a v1 client session and ends it when the client terminates', async () => {
    await withPeer(startV1SessionServer, async (peer) => {
      const summary = await runV1HttpSession(peer.url, { token: 'tok-v1' });
      expect(summary).toEqual({ toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi', sum: '3' });
      expect(methodsSeen(peer)).toEqual(['DELETE', 'GET', 'POST']);
      expect(peer.seen.every((r) => r.authorization === 'Bearer tok-v1')).toBe(true);
    });
  });

  test('a client that closes without terminating sends no DELETE', async () => {
    await withPeer(startV1SessionServer, async (peer) => {
      await runV1HttpSession(peer.url, { terminate: false });
      expect(methodsSeen(peer)).toEqual(['GET', 'POST']);
    });
  });

  test('DELETE ends the session: the GET stream closes and the id is then unknown', async () => {
    await withPeer(startV1SessionServer, async (peer) => {
      const init = await fetch(peer.url, { method: 'POST', headers: POST_HEADERS, body: INITIALIZE });
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      await init.text();
      expect(sessionId).not.toBe('');

      const stream = await fetch(peer.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
      expect(stream.status).toBe(200);
      const streamEnded = stream.text();

      const deleted = await fetch(peer.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
      expect(deleted.status).toBe(200);
      await expect(streamEnded).resolves.toBe('');

      const after = await fetch(peer.url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': sessionId }, body: INITIALIZE });
      expect(after.status).toBe(404);
      expect(await after.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' }, id: null });
    });
  });

  test('answers a non-initialize POST without a session 400 -32000 and an unknown session 404 -32001', async () => {
    await withPeer(startV1SessionServer, async (peer) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const missing = await fetch(peer.url, { method: 'POST', headers: POST_HEADERS, body });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
      const unknown = await fetch(peer.url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': 'nope' }, body });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: -32001 } });
    });
  });
});

describe('v1 SSE server (deprecated HTTP+SSE)', () => {
  test('serves a v1 SSE client, which sends its token on the GET stream and on every POST', async () => {
    await withPeer(startV1SseServer, async (peer) => {
      expect(peer.url.pathname).toBe('/sse');
      const summary = await runV1SseSession(peer.url, { token: 'tok-sse' });
      expect(summary).toEqual({ toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi', sum: '3' });
      expect(methodsSeen(peer)).toEqual(['GET', 'POST']);
      expect(peer.seen.every((r) => r.authorization === 'Bearer tok-sse')).toBe(true);
      expect(peer.seen.filter((r) => r.method === 'POST').every((r) => r.path.startsWith('/messages?sessionId='))).toBe(true);
    });
  });

  test('mounts under a base path, and its endpoint event names the prefixed messages path', async () => {
    await withPeer(
      () => startV1SseServer({ basePath: '/base' }),
      async (peer) => {
        expect(peer.url.pathname).toBe('/base/sse');
        const summary = await runV1SseSession(peer.url);
        expect(summary.sum).toBe('3');
        expect(peer.seen.filter((r) => r.method === 'POST').every((r) => r.path.startsWith('/base/messages?sessionId='))).toBe(true);
      },
    );
  });
});

describe('v2 modern-only server', () => {
  test('serves a pinned v2 client in the modern era with its token on every request', async () => {
    await withPeer(
      () => startV2Server('modern'),
      async (peer) => {
        const summary = await runV2Session(peer.url, 'pin', { token: 'tok-pin' });
        expect(summary).toEqual({ toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=modern', sum: '3' });
        expect(methodsSeen(peer)).toEqual(['POST']);
        expect(peer.seen.every((r) => r.authorization === 'Bearer tok-pin')).toBe(true);
      },
    );
  });

  test('a v1 client cannot connect: initialize is answered 400 -32022', async () => {
    await withPeer(
      () => startV2Server('modern'),
      async (peer) => {
        const error = await captureV1ConnectError(peer.url);
        expect(error.message).toContain('-32022');
        expect((error as Error & { code?: unknown }).code).toBe(400);
      },
    );
  });
});

describe('v2 dual-era server', () => {
  test('serves a v2 auto client in the modern era', async () => {
    await withPeer(
      () => startV2Server('dual'),
      async (peer) => {
        const summary = await runV2Session(peer.url, 'auto', { token: 'tok-auto' });
        expect(summary).toEqual({ toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=modern', sum: '3' });
        expect(peer.seen.every((r) => r.authorization === 'Bearer tok-auto')).toBe(true);
      },
    );
  });

  test('serves a v1 client statelessly in the legacy era', async () => {
    await withPeer(
      () => startV2Server('dual'),
      async (peer) => {
        const summary = await runV1HttpSession(peer.url);
        expect(summary).toEqual({ toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi era=legacy', sum: '3' });
        // No session id is ever issued, so the client's DELETE is skipped; its GET stream gets 405.
        expect(methodsSeen(peer)).toEqual(['GET', 'POST']);
      },
    );
  });

  test('a v2 auto client falls back to legacy against the v1 session server', async () => {
    await withPeer(startV1SessionServer, async (peer) => {
      const summary = await runV2Session(peer.url, 'auto');
      expect(summary).toEqual({ toolNames: expect.arrayContaining(TOOL_NAMES), echo: 'hi', sum: '3' });
      expect(methodsSeen(peer)).toEqual(['DELETE', 'GET', 'POST']);
    });
  });
});

type CountRunner = (url: URL, steps: number, delayMs: number, onProgress: ProgressListener) => Promise<CountOutcome>;

describe('progress notifications from the count tool', () => {
  const STEPS = 4;
  const DELAY_MS = 250;
  const cases: [string, () => Promise<Peer>, CountRunner][] = [
    ['v1 client on the v1 session server', startV1SessionServer, runV1CountWithProgress],
    ['v1 client on the v2 dual server (legacy leg)', () => startV2Server('dual'), runV1CountWithProgress],
    ['v2 pinned client on the v2 modern server (response upgrades to SSE)', () => startV2Server('modern'), runV2CountWithProgress],
  ];

  test.each(cases)('%s: every step arrives before the result', async (_name, start, runCount) => {
    await withPeer(start, async (peer) => {
      const progress: { value: number; atMs: number }[] = [];
      const outcome = await runCount(peer.url, STEPS, DELAY_MS, (value, atMs) => progress.push({ value, atMs }));
      expect(outcome.text).toBe(`counted ${STEPS}`);
      expect(progress.map((p) => p.value)).toEqual([1, 2, 3, 4]);
      const first = progress[0]?.atMs ?? Number.POSITIVE_INFINITY;
      // Streamed, not buffered: the first step is seen at least one step's delay before the tool
      // finishes, of the three it waits after it (a wide margin for a loaded machine).
      expect(outcome.atMs - first).toBeGreaterThanOrEqual(DELAY_MS);
    });
  });
});
