import { describe, expect, test } from 'vitest';
import { createEraCache } from '../../server/prober/attempt/era-cache.js';
import { probe } from '../../server/prober/probe.js';
import type { PeerConfig } from '../../server/prober/targets/peer-config.js';
import { DISCOVER_RESULT, INITIALIZE_RESULT, rpc, TOOLS, type FakeHandler, type FakeRequest, type FakeServer } from './fakes/fake-http-server.js';
import { FAST, methodOf, sentMethods, useFakes } from './fakes/http-peers.js';

const fake = useFakes();

/** The deprecated transport: GET /sse opens the stream, POST /messages is accepted and answered on it. */
function httpSseServer(endpoint: (origin: string) => string, firstEvent = 'endpoint'): FakeHandler {
  return (r, ctx) => {
    if (r.method === 'GET' && r.path === '/sse') return { stream: [{ event: firstEvent, data: endpoint(ctx.origin) }] };
    if (r.method === 'POST' && r.path.startsWith('/messages')) {
      const method = methodOf(r);
      setTimeout(() => {
        if (method === 'initialize') ctx.push({ event: 'message', data: JSON.stringify(rpc.result(r, INITIALIZE_RESULT())) });
        if (method === 'tools/list') ctx.push({ event: 'message', data: JSON.stringify(rpc.result(r, TOOLS('echo'))) });
      }, 5);
      return { status: 202, text: 'Accepted' };
    }
    return { status: 404, text: `Cannot ${r.method} ${r.path}`, contentType: 'text/html' };
  };
}

const ssePeer = (server: FakeServer, allowHttpSse: boolean): PeerConfig => ({ name: 'old', target: { kind: 'http', url: new URL('/sse', server.origin).href }, allowLegacy: true, allowHttpSse });

describe('HTTP+SSE (allowHttpSse only)', () => {
  test('after the initialize POST is refused without a JSON-RPC body, GET for the endpoint and initialize there', async () => {
    const server = await fake(httpSseServer(() => '/messages?sessionId=abc'));
    const verdict = await probe(ssePeer(server, true), FAST);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', transport: 'http+sse', version: '2025-11-25' });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'initialize', 'notifications/initialized', 'tools/list']);
    const get = server.requests.find((r) => r.method === 'GET')!;
    expect(get.headers.accept).toBe('text/event-stream');
    const posted = server.requests.filter((r) => r.path.startsWith('/messages'));
    expect(posted.map(methodOf)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(posted[0]!.headers['mcp-protocol-version']).toBeUndefined();
  });

  test('without allowHttpSse it fails closed and names the setting', async () => {
    const server = await fake(httpSseServer(() => '/messages?sessionId=abc'));
    const verdict = await probe(ssePeer(server, false), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'allowHttpSse', evidence: { code: 'initialize-http-404' } });
    expect(server.requests.some((r) => r.method === 'GET')).toBe(false);
  });

  test('an endpoint event naming another origin fails closed, and nothing is posted there', async () => {
    const elsewhere = await fake(() => ({ status: 202 }));
    const server = await fake(httpSseServer(() => `${elsewhere.origin}/messages?sessionId=abc`));
    const verdict = await probe(ssePeer(server, true), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'incompatible', evidence: { code: 'http-sse-cross-origin-endpoint' } });
    expect(elsewhere.requests).toEqual([]);
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize']);
  });

  test('a first event that is not endpoint fails closed', async () => {
    const server = await fake(httpSseServer(() => '{}', 'message'));
    expect(await probe(ssePeer(server, true), FAST)).toMatchObject({ state: 'incompatible', evidence: { code: 'http-sse-no-endpoint' } });
  });
});

describe('the era cache over HTTP', () => {
  function sessionServer(onToolsList: (r: FakeRequest) => ReturnType<FakeHandler> = (r) => ({ status: 200, json: rpc.result(r, TOOLS('a')) })): FakeHandler {
    return (r) => {
      if (r.method === 'DELETE') return { status: 200 };
      switch (methodOf(r)) {
        case 'server/discover':
          return { status: 400, json: rpc.error(null, -32000, 'Bad Request: No valid session ID provided') };
        case 'initialize':
          return { status: 200, headers: { 'mcp-session-id': 's1' }, json: rpc.result(r, INITIALIZE_RESULT()) };
        case 'notifications/initialized':
          return { status: 202 };
        default:
          return onToolsList(r);
      }
    };
  }

  test('a cached legacy era skips server/discover for the same configuration', async () => {
    const cache = createEraCache();
    const server = await fake(sessionServer());
    const peer: PeerConfig = { name: 'p', target: { kind: 'http', url: server.url.href } };
    expect(sentMethods(await probe(peer, { ...FAST, cache }))).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    const second = await probe(peer, { ...FAST, cache });
    expect(second).toMatchObject({ era: 'legacy', state: 'ready', evidence: { code: 'cached-era' } });
    expect(sentMethods(second)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
  });

  test('a configuration change drops the cached era: the new endpoint is probed from server/discover', async () => {
    const cache = createEraCache();
    const legacy = await fake(sessionServer());
    const modern = await fake((r) => ({ status: 200, json: rpc.result(r, methodOf(r) === 'server/discover' ? DISCOVER_RESULT() : TOOLS('a')) }));
    await probe({ name: 'p', target: { kind: 'http', url: legacy.url.href } }, { ...FAST, cache });
    const moved = await probe({ name: 'p', target: { kind: 'http', url: modern.url.href } }, { ...FAST, cache });
    expect(moved).toMatchObject({ era: 'modern', state: 'ready' });
    expect(sentMethods(moved)).toEqual(['server/discover', 'tools/list']);
    expect(cache.drops).toEqual([{ peer: 'p', reason: 'config-change' }]);
  });

  test('a 404 on the legacy session drops the cached era, and the retry starts with server/discover', async () => {
    const cache = createEraCache();
    let restarted = false;
    const server = await fake(sessionServer((r) => (restarted ? { status: 404, json: rpc.error(null, -32001, 'Session not found') } : { status: 200, json: rpc.result(r, TOOLS('a')) })));
    const peer: PeerConfig = { name: 'p', target: { kind: 'http', url: server.url.href } };
    await probe(peer, { ...FAST, cache });
    restarted = true;
    const after = await probe(peer, { ...FAST, cache });
    expect(after).toMatchObject({ era: null, state: 'unavailable', evidence: { code: 'legacy-session-gone' } });
    expect(cache.drops).toEqual([{ peer: 'p', reason: 'session-gone' }]);
    expect(cache.lookup(peer)).toBeUndefined();
    restarted = false;
    expect(sentMethods(await probe(peer, { ...FAST, cache }))).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
  });

  test('unavailability is never cached', async () => {
    const cache = createEraCache();
    const server = await fake(() => ({ status: 503 }));
    await probe({ name: 'p', target: { kind: 'http', url: server.url.href } }, { ...FAST, cache });
    expect(cache.lookup({ name: 'p', target: { kind: 'http', url: server.url.href } })).toBeUndefined();
  });
});
