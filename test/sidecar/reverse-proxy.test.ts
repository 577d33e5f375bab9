import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpRequestClassification, HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import { CompiledPolicy } from '../../server/policy/compiled-policy.js';
import { HttpExchange } from '../../server/sidecar/http-exchange.js';
import { HttpMeter } from '../../server/sidecar/http-meter.js';
import { ANONYMOUS, type Caller } from '../../server/sidecar/identify-caller.js';
import { createReverseProxy } from '../../server/sidecar/reverse-proxy.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';

const BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}';
const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{"tools":[],"resultType":"complete"}}';

/** A meter whose exchanges break at one step, as a bug in metering would. */
class BrokenMeter extends HttpMeter<Caller> {
  constructor(private readonly breakAt: 'begin' | 'responseHead' | 'responseBytes' | 'responseEnd') {
    super({ record: () => undefined });
  }
  override classify(facts: HttpRequestFacts): HttpRequestClassification {
    if (this.breakAt === 'begin') throw new Error('broken begin');
    return super.classify(facts);
  }
  override follow(classification: HttpRequestClassification, facts: HttpRequestFacts, attrs: Caller): HttpExchange<Caller> {
    const exchange = super.follow(classification, facts, attrs);
    if (this.breakAt === 'begin') return exchange;
    const step = this.breakAt;
    exchange[step] = () => {
      throw new Error(`broken ${step}`);
    };
    return exchange;
  }
}

describe('the reverse proxy when metering itself fails', () => {
  let upstream: RawUpstream | undefined;
  let proxyServer: Server | undefined;
  afterEach(async () => {
    proxyServer?.closeAllConnections();
    await new Promise((resolve) => (proxyServer ? proxyServer.close(resolve) : resolve(undefined)));
    await upstream?.close();
  });

  test.each(['begin', 'responseHead', 'responseBytes', 'responseEnd'] as const)('a failure in %s is reported once and the request still gets its answer', async (breakAt) => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
    const errors: string[] = [];
    const proxy = createReverseProxy({
      upstream: new URL(upstream.origin),
      maxBodyBytes: 1024,
      connectTimeoutMs: 1000,
      meter: new BrokenMeter(breakAt),
      identify: () => ANONYMOUS,
      onInternalError: (error) => errors.push((error as Error).message),
    });
    proxyServer = createServer((req, res) => proxy.handle(req, res));
    await new Promise<void>((resolve) => proxyServer!.listen(0, '127.0.0.1', resolve));
    const { port } = proxyServer.address() as AddressInfo;
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(ANSWER);
    }
    expect(upstream.received.map((r) => r.body.toString())).toEqual([BODY, BODY]);
    expect(errors).toEqual([`broken ${breakAt}`, `broken ${breakAt}`]);
  });

  test('a fault in the policy lets the request through to its answer, and is reported', async () => {
    upstream = await startRawUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
    const errors: string[] = [];
    const broken = new (class extends CompiledPolicy {
      override decide(): never {
        throw new Error('broken policy');
      }
    })(1, [], 0);
    Object.defineProperty(broken, 'enforcing', { value: true });
    const proxy = createReverseProxy({
      upstream: new URL(upstream.origin),
      maxBodyBytes: 1024,
      connectTimeoutMs: 1000,
      meter: new HttpMeter<Caller>({ record: () => undefined }),
      identify: () => ANONYMOUS,
      policy: () => broken,
      onInternalError: (error, where) => errors.push(`${where}: ${(error as Error).message}`),
    });
    proxyServer = createServer((req, res) => proxy.handle(req, res));
    await new Promise<void>((resolve) => proxyServer!.listen(0, '127.0.0.1', resolve));
    const { port } = proxyServer.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(ANSWER);
    expect(errors).toEqual(['policy: broken policy']);
  });
});

/** Resolves with the response head, or with `undefined` if none came within `boundMs`. */
function responseHeadWithin(url: string, headers: Record<string, string>, boundMs: number): Promise<IncomingMessage | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers, agent: false });
    const timer = setTimeout(() => {
      request.destroy();
      resolve(undefined);
    }, boundMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      resolve(response);
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end();
  });
}

describe('the reverse proxy with a quiet event stream', () => {
  let upstream: RawUpstream | undefined;
  let proxyServer: Server | undefined;
  afterEach(async () => {
    proxyServer?.closeAllConnections();
    await new Promise((resolve) => (proxyServer ? proxyServer.close(resolve) : resolve(undefined)));
    await upstream?.close();
  });

  test('passes on the headers of an event stream before its first event', async () => {
    upstream = await startRawUpstream((_req, res) => {
      // Headers only: the stream stays open and silent until the test ends.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
    });
    const proxy = createReverseProxy({
      upstream: new URL(upstream.origin),
      maxBodyBytes: 1024,
      connectTimeoutMs: 1000,
      meter: new HttpMeter<Caller>({ record: () => undefined }),
      identify: () => ANONYMOUS,
      onInternalError: (error) => {
        throw error;
      },
    });
    proxyServer = createServer((req, res) => proxy.handle(req, res));
    await new Promise<void>((resolve) => proxyServer!.listen(0, '127.0.0.1', resolve));
    const { port } = proxyServer.address() as AddressInfo;
    // A generous bound: the point is that the head comes at all while the upstream is silent.
    const response = await responseHeadWithin(`http://127.0.0.1:${port}/mcp`, { accept: 'text/event-stream', 'mcp-session-id': 's-1' }, 10_000);
    expect(response?.statusCode).toBe(200);
    expect(response?.headers['content-type']).toBe('text/event-stream');
    response?.destroy();
  });
});
