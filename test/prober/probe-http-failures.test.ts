import { describe, expect, test } from 'vitest';
import { CHECKLIST_ITEMS } from '../../server/prober/judge/check-initialize-result.js';
import type { PeerPolicy } from '../../server/prober/targets/peer-config.js';
import { probe } from '../../server/prober/probe.js';
import { DISCOVER_RESULT, rpc, TOOLS, type FakeHandler } from './fakes/fake-http-server.js';
import { FAST, legacy400, legacyServer, methodOf, peerAt, sentMethods, useFakes } from './fakes/http-peers.js';
import { FAILING_ITEMS, goodInitializeAnswer } from './fakes/initialize-answers.js';

const fake = useFakes();

describe('ambiguous answers fail closed unless allowLegacy (rows 4, 11-13, 15, 17, 24, 25)', () => {
  const cases: [string, FakeHandler][] = [
    ['404 with an HTML page', () => ({ status: 404, text: '<pre>Cannot POST /mcp</pre>', contentType: 'text/html' })],
    ['405', () => ({ status: 405 })],
    ['404 with -32601', (r) => ({ status: 404, json: rpc.error(r, -32601, 'Method not found') })],
    ['200 with -32601 in an SSE body', (r) => ({ status: 200, sse: [{ event: 'message', data: JSON.stringify(rpc.error(r, -32601, 'Method not found')) }] })],
    ['400 with -32602', (r) => ({ status: 400, json: rpc.error(r, -32602, 'Invalid params') })],
    ['202 with no body', () => ({ status: 202 })],
    ['a result that is not a DiscoverResult', (r) => ({ status: 200, json: rpc.result(r, {}) })],
    ['an answer with a foreign id', () => ({ status: 200, json: { jsonrpc: '2.0', id: 'not-yours', result: DISCOVER_RESULT() } })],
  ];
  test.each(cases)('%s: incompatible by default, naming allowLegacy', async (_name, probeReply) => {
    const server = await fake(legacyServer(probeReply));
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'incompatible', enableWith: 'allowLegacy', evidence: { class: 'AMB' } });
    expect(server.methods()).toEqual(['server/discover']);
  });

  test.each(cases)('%s: allowlisted, one validated initialize', async (_name, probeReply) => {
    const server = await fake(legacyServer(probeReply));
    const verdict = await probe(peerAt(server, { allowLegacy: true }), FAST);
    expect(verdict).toMatchObject({ era: 'legacy', state: 'ready', version: '2025-11-25' });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
  });
});

describe('the positive-evidence checklist before notifications/initialized', () => {
  test.each(CHECKLIST_ITEMS.map((item) => [item]))('an initialize result failing %s leaves the peer unavailable, uninitialized', async (item) => {
    const server = await fake((r) => {
      if (methodOf(r) === 'server/discover') return legacy400('Bad Request: No valid session ID provided')(r);
      return { status: 200, json: FAILING_ITEMS[item](goodInitializeAnswer(r.body!.id)) };
    });
    const verdict = await probe(peerAt(server, { allowLegacy: true }), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', evidence: { code: `initialize-${item}` } });
    expect(server.methods()).toEqual(['server/discover', 'initialize']);
  });

  test('an initialize that times out leaves the peer unavailable, with no notifications/initialized', async () => {
    const server = await fake((r) => (methodOf(r) === 'server/discover' ? legacy400('Bad Request: No valid session ID provided')(r) : { hang: true }));
    const verdict = await probe(peerAt(server), { ...FAST, initializeTimeoutMs: 200 });
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', evidence: { code: 'initialize-timeout' } });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize']);
  });

  test('-32022 in answer to initialize is modern evidence: re-probe, never legacy', async () => {
    let discovers = 0;
    const server = await fake((r) => {
      if (methodOf(r) === 'initialize') return { status: 400, json: rpc.error(r, -32022, 'Unsupported protocol version: 2025-11-25', { supported: ['2026-07-28'], requested: '2025-11-25' }) };
      if (methodOf(r) === 'server/discover') return ++discovers === 1 ? legacy400('Bad Request: Server not initialized')(r) : { status: 200, json: rpc.result(r, DISCOVER_RESULT()) };
      return { status: 200, json: rpc.result(r, TOOLS('a')) };
    });
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready', version: '2026-07-28' });
    expect(sentMethods(verdict)).toEqual(['server/discover', 'initialize', 'server/discover', 'tools/list']);
  });
});

describe('failures that are not about eras never lead to initialize (rows 18-20)', () => {
  const everything: Partial<PeerPolicy> = { allowLegacy: true, allowHttpSse: true, legacyOnEvidence: true };
  test.each([401, 403])('%i is auth-required', async (status) => {
    const server = await fake(() => ({ status, json: rpc.error(null, -32000, 'Bad Request: No valid session ID provided'), headers: { 'www-authenticate': 'Bearer realm="mcp"' } }));
    const verdict = await probe(peerAt(server, everything), FAST);
    expect(verdict).toMatchObject({ era: null, state: 'auth-required', evidence: { class: 'STOP', code: 'auth-required' } });
    expect(verdict.evidence.detail).toContain('Bearer realm="mcp"');
    expect(server.methods()).toEqual(['server/discover']);
  });

  test('a one-shot probe never waits on Retry-After: 503 with Retry-After 30 is unavailable at once, with retryAfterMs, after one request', async () => {
    const waits: number[] = [];
    const server = await fake(() => ({ status: 503, headers: { 'retry-after': '30' } }));
    // Default attempts (3): only the Retry-After keeps the probe from trying again.
    const verdict = await probe(peerAt(server, everything), { probeTimeoutMs: 2000, sleep: async (ms) => waits.push(ms) });
    expect(verdict).toMatchObject({ era: null, state: 'unavailable', retryAfterMs: 30_000, evidence: { class: 'STOP', code: 'server-error' } });
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  test('a Retry-After given as an HTTP-date is read against the probe\'s clock', async () => {
    const now = Date.parse('2026-09-01T00:00:00Z');
    const server = await fake(() => ({ status: 429, headers: { 'retry-after': 'Tue, 01 Sep 2026 00:00:45 GMT' } }));
    const verdict = await probe(peerAt(server), { probeTimeoutMs: 2000, now: () => now, sleep: async () => expect.fail('a one-shot probe must not sleep') });
    expect(verdict).toMatchObject({ state: 'unavailable', retryAfterMs: 45_000, evidence: { code: 'rate-limited' } });
    expect(server.requests).toHaveLength(1);
  });

  test('a verdict that is not unavailable carries no retryAfterMs', async () => {
    const server = await fake((r) => ({ status: 200, json: rpc.result(r, methodOf(r) === 'server/discover' ? DISCOVER_RESULT() : TOOLS('a')) }));
    expect(await probe(peerAt(server), FAST)).toMatchObject({ state: 'ready', retryAfterMs: null });
  });

  test('waitOnRetryAfter: 5xx is unavailable; the retry waits at least Retry-After and starts again with server/discover', async () => {
    const waits: number[] = [];
    let calls = 0;
    const server = await fake((r) => (++calls === 1 ? { status: 503, headers: { 'retry-after': '3' } } : { status: 200, json: rpc.result(r, methodOf(r) === 'server/discover' ? DISCOVER_RESULT() : TOOLS('a')) }));
    const verdict = await probe(peerAt(server, everything), { ...FAST, attempts: 3, initialBackoffMs: 10, waitOnRetryAfter: true, sleep: async (ms) => waits.push(ms) });
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready' });
    expect(waits).toEqual([3000]);
    expect(sentMethods(verdict)).toEqual(['server/discover', 'server/discover', 'tools/list']);
  });

  test('waitOnRetryAfter: a Retry-After longer than we wait ends the retries', async () => {
    const server = await fake(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const verdict = await probe(peerAt(server), { ...FAST, attempts: 3, waitOnRetryAfter: true, sleep: async () => undefined });
    expect(verdict).toMatchObject({ state: 'unavailable', retryAfterMs: 3_600_000, evidence: { code: 'rate-limited' } });
    expect(server.methods()).toEqual(['server/discover']);
  });

  test('an HTTP timeout is an outage: unavailable, no initialize even allowlisted; a retry finds it modern', async () => {
    let calls = 0;
    const server = await fake((r) => (++calls === 1 ? { hang: true } : { status: 200, json: rpc.result(r, methodOf(r) === 'server/discover' ? DISCOVER_RESULT() : TOOLS('a')) }));
    const once = await probe(peerAt(server, everything), { ...FAST, probeTimeoutMs: 200 });
    expect(once).toMatchObject({ era: null, state: 'unavailable', enableWith: null, evidence: { class: 'STOP', code: 'http-timeout' } });
    expect(sentMethods(once)).toEqual(['server/discover']);
    const retried = await probe(peerAt(server, everything), { ...FAST, probeTimeoutMs: 200, attempts: 2, initialBackoffMs: 1 });
    expect(retried).toMatchObject({ era: 'modern', state: 'ready' });
  });

  test('a refused connection and a reset are unavailable', async () => {
    const server = await fake(() => ({ reset: true }));
    expect(await probe(peerAt(server, everything), FAST)).toMatchObject({ state: 'unavailable', evidence: { code: 'unreachable' } });
    const port = new URL(server.origin).port;
    await server.close();
    expect(await probe({ name: 'gone', target: { kind: 'http', url: `http://127.0.0.1:${port}/mcp` }, ...everything }, FAST)).toMatchObject({ state: 'unavailable', evidence: { code: 'unreachable' } });
  });
});

describe('redirects', () => {
  test('a cross-origin redirect is not followed', async () => {
    const elsewhere = await fake((r) => ({ status: 200, json: rpc.result(r, DISCOVER_RESULT()) }));
    const server = await fake(() => ({ status: 307, headers: { location: elsewhere.url.href } }));
    const verdict = await probe(peerAt(server, { allowLegacy: true }), FAST);
    expect(verdict).toMatchObject({ state: 'unavailable', evidence: { code: 'cross-origin-redirect' } });
    expect(elsewhere.requests).toEqual([]);
    expect(server.methods()).toEqual(['server/discover']);
  });

  test('a same-origin redirect is followed, keeping the POST and its headers', async () => {
    const server = await fake((r) => {
      if (r.path === '/mcp') return { status: 308, headers: { location: '/v2/mcp' } };
      return { status: 200, json: rpc.result(r, methodOf(r) === 'server/discover' ? DISCOVER_RESULT() : TOOLS('a')) };
    });
    const verdict = await probe(peerAt(server), FAST);
    expect(verdict).toMatchObject({ era: 'modern', state: 'ready' });
    expect(server.requests.map((r) => `${r.method} ${r.path} ${methodOf(r)}`)).toEqual(['POST /mcp server/discover', 'POST /v2/mcp server/discover', 'POST /mcp tools/list', 'POST /v2/mcp tools/list']);
    expect(server.requests[1]!.headers['mcp-method']).toBe('server/discover');
  });
});
