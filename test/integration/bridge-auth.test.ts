import { randomBytes } from 'node:crypto';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as V1SseTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import { startV2Server } from '../peers/v2-server.js';
import { rawRequest } from '../support/raw-request.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const TOKEN = 'good-token-0001';
const ACCEPT = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'];
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
const headerOf = (rawHeaders: string[], name: string) => rawHeaders[rawHeaders.findIndex((h) => h.toLowerCase() === name) + 1];

/**
 * The bridge as a faithful edge in front of an OAuth-protected modern-only server, configured as
 * every other example is (`--upstream http://host:port`, clients at `/mcp` and `/sse`).
 */
describe('the bridge in front of a modern server that requires a bearer token', () => {
  let peer: Awaited<ReturnType<typeof startV2Server>>;
  let service: TestService;
  beforeAll(async () => {
    peer = await startV2Server('modern', { requireBearer: TOKEN });
    service = await startTestService(new URL(peer.origin), { bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
  });

  test('an SDK v1 client with the token works through the bridge at /mcp, and the server sees the client\'s own token on every request', async () => {
    peer.seen.length = 0;
    const client = new V1Client(CLIENT_INFO);
    const transport = new V1HttpTransport(new URL('/mcp', service.sidecarUrl), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    await client.close();
    expect(peer.seen.length).toBeGreaterThan(0);
    expect(peer.seen.filter((r) => r.path !== "/mcp" || r.authorization !== `Bearer ${TOKEN}`)).toEqual([]);
  });

  test('over HTTP+SSE at /sse too', async () => {
    peer.seen.length = 0;
    const client = new V1Client(CLIENT_INFO);
    await client.connect(new V1SseTransport(new URL('/sse', service.sidecarUrl), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } }))).toBe('4');
    await client.close();
    expect(peer.seen.length).toBeGreaterThan(0);
    expect(peer.seen.filter((r) => r.path !== "/mcp" || r.authorization !== `Bearer ${TOKEN}`)).toEqual([]);
  });

  test('an HTTP+SSE channel is bound to the credential its stream was opened with: its message URL with another token is refused, and the server never sees it', async () => {
    const posted: string[] = [];
    const client = new V1Client(CLIENT_INFO);
    await client.connect(new V1SseTransport(new URL('/sse', service.sidecarUrl), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: (input, init) => {
        posted.push(String(input));
        return fetch(input, init);
      },
    }));
    try {
      const endpoint = posted.find((url) => url.includes('/messages'))!;
      peer.seen.length = 0;
      for (const authorization of ['Bearer someone-else', undefined]) {
        const answer = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) }, body: toolsList });
        expect(answer.status).toBe(404);
        expect(await answer.text()).toContain('other-credential');
      }
      expect(peer.seen).toEqual([]);
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 3, b: 3 } }))).toBe('6');
    } finally {
      await client.close();
    }
  });

  test('without the token a legacy client gets the server\'s own 401 and its WWW-Authenticate, and the SDK client fails as against a legacy server', async () => {
    const answer = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', ACCEPT, initialize);
    expect(answer.status).toBe(401);
    expect(headerOf(answer.rawHeaders, 'www-authenticate')).toMatch(/^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    expect(JSON.parse(answer.body.toString())).toEqual({ error: 'invalid_token' });
    const client = new V1Client(CLIENT_INFO);
    await expect(client.connect(new V1HttpTransport(new URL('/mcp', service.sidecarUrl)))).rejects.toThrow(/invalid_token/);
  });

  test('a session id replayed with another token, or none, is refused; with its own it is served', async () => {
    const opened = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', [...ACCEPT, 'Authorization', `Bearer ${TOKEN}`], initialize);
    expect(opened.status).toBe(200);
    const sessionId = headerOf(opened.rawHeaders, 'mcp-session-id')!;
    const session = [...ACCEPT, 'Mcp-Session-Id', sessionId, 'MCP-Protocol-Version', '2025-11-25'];
    peer.seen.length = 0;
    for (const other of [['Authorization', 'Bearer stolen-elsewhere'], []]) {
      const replayed = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', [...session, ...other], toolsList);
      expect(replayed.status).toBe(404);
      expect(replayed.body.toString()).toContain('other-credential');
    }
    expect(peer.seen).toEqual([]);
    const own = await rawRequest(new URL('/mcp', service.sidecarUrl), 'POST', [...session, 'Authorization', `Bearer ${TOKEN}`], toolsList);
    expect(own.status).toBe(200);
    expect(own.body.toString()).toContain('"add"');
  });
});

describe('the bridge behind a public prefix of its own', () => {
  test('clients at /tools/mcp reach the server\'s /mcp through the bridge, over Streamable HTTP and HTTP+SSE, as the proxy maps them', async () => {
    const peer = await startV2Server('modern');
    const service = await startTestService(new URL('/mcp', peer.origin), { publicPrefix: '/tools/mcp', bridge: { enabled: true, key: randomBytes(32).toString('hex') } });
    try {
      const client = new V1Client(CLIENT_INFO);
      await client.connect(new V1HttpTransport(new URL('/tools/mcp', service.sidecarUrl)));
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 4 } }))).toBe('5');
      await client.close();
      const sse = new V1Client(CLIENT_INFO);
      await sse.connect(new V1SseTransport(new URL('/sse', service.sidecarUrl)));
      expect(textOf(await sse.callTool({ name: 'add', arguments: { a: 2, b: 4 } }))).toBe('6');
      await sse.close();
      expect(peer.seen.length).toBeGreaterThan(0);
      expect([...new Set(peer.seen.map((request) => `${request.method} ${request.path}`))]).toEqual(['POST /mcp']);
    } finally {
      await service.dispose();
      await peer.close();
    }
  });
});
