import { describe, expect, test } from 'vitest';
import type { HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import type { JsonRpcId } from '../../server/protocol/read-json-rpc.js';
import type { Outcome } from '../../server/protocol/vocabulary.js';
import { createBodyObserver } from '../../server/sidecar/body-observer.js';
import type { HttpExchange } from '../../server/sidecar/http-exchange.js';
import { HttpMeter, type HttpMeterOptions } from '../../server/sidecar/http-meter.js';
import type { Observation } from '../../server/sidecar/observation.js';

type Headers = Record<string, string | string[] | undefined>;

const MODERN = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const JSON_HEADERS: Headers = { 'content-type': 'application/json' };
const SSE_HEADERS: Headers = { 'content-type': 'text/event-stream' };
const CHANNEL = '/messages?sessionId=abc';

// ---- harness ----------------------------------------------------------------------------------

function harness(options: Omit<HttpMeterOptions<string>, 'record'> = {}) {
  const recorded: Observation<string>[] = [];
  const meter = new HttpMeter<string>({ ...options, record: (observation) => recorded.push(observation) });
  return { meter, recorded };
}

/** What a count is filed under: enough to tell every outcome and each message apart. */
function counted(recorded: Observation<string>[]) {
  return recorded.map((o) => ({ method: o.message.method, id: o.message.id, outcome: o.outcome }));
}

/** The same, in id order: requests settled together (a channel closing) come in table order. */
function countedById(recorded: Observation<string>[]) {
  return counted(recorded).sort((a, b) => String(a.id).localeCompare(String(b.id)));
}

// ---- messages ---------------------------------------------------------------------------------

function modernToolsCall(id: JsonRpcId = 1, name = 'echo') {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: { [META_VERSION]: MODERN } } };
}

function modernHeaders(method = 'tools/call', name: string | undefined = 'echo'): Headers {
  return { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
}

function initializeRequest(requested = '2025-11-25', id: JsonRpcId = 0) {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: requested, capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
}

function legacyRequest(method: string, id: JsonRpcId) {
  return { jsonrpc: '2.0', id, method, params: {} };
}

function notification(method: string) {
  return { jsonrpc: '2.0', method };
}

function result(id: JsonRpcId | null, value: Record<string, unknown> = { content: [] }) {
  return { jsonrpc: '2.0', id, result: value };
}

function rpcError(id: JsonRpcId | null, code: number) {
  return { jsonrpc: '2.0', id, error: { code, message: 'refused' } };
}

function serverRequest(id: JsonRpcId, method: string) {
  return { jsonrpc: '2.0', id, method, params: {} };
}

// ---- HTTP -------------------------------------------------------------------------------------

function postFacts(body: unknown, headers: Headers = {}, path = '/mcp'): HttpRequestFacts {
  return { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), bodyTooLarge: false };
}

function getFacts(headers: Headers, path = '/mcp'): HttpRequestFacts {
  return { method: 'GET', path, headers: { accept: 'text/event-stream', ...headers }, body: undefined, bodyTooLarge: false };
}

function deleteFacts(headers: Headers): HttpRequestFacts {
  return { method: 'DELETE', path: '/mcp', headers, body: undefined, bodyTooLarge: false };
}

function session(id: string): Headers {
  return { 'mcp-session-id': id };
}

interface SseEvent {
  event?: string;
  id?: string;
  data: unknown;
}

/** SSE text for events; data that is not a string is sent as JSON. */
function sse(...events: SseEvent[]): string {
  return events
    .map((e) => {
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
      return `${e.event === undefined ? '' : `event: ${e.event}\n`}${e.id === undefined ? '' : `id: ${e.id}\n`}data: ${data}\n\n`;
    })
    .join('');
}

function answerJson(exchange: HttpExchange<string>, status: number, body: unknown, headers: Headers = {}): void {
  exchange.responseHead(status, { ...JSON_HEADERS, ...headers });
  exchange.responseChunk(JSON.stringify(body));
  exchange.responseEnd();
}

function accepted(exchange: HttpExchange<string>): void {
  exchange.responseHead(202, {});
  exchange.responseChunk('Accepted');
  exchange.responseEnd();
}

/** Runs a legacy initialize through the meter; the server mints `sessionId` and negotiates `negotiated`. */
function establishSession(meter: HttpMeter<string>, sessionId: string, negotiated: string, requested = '2025-11-25'): void {
  const exchange = meter.begin(postFacts(initializeRequest(requested)), 'init');
  answerJson(exchange, 200, result(0, { protocolVersion: negotiated, capabilities: {}, serverInfo: { name: 's', version: '1' } }), session(sessionId));
}

/** Opens an HTTP+SSE stream whose first event names the message endpoint. */
function openChannel(meter: HttpMeter<string>, endpoint = CHANNEL, headers: Headers = {}): HttpExchange<string> {
  const stream = meter.begin(getFacts(headers, '/sse'), 'stream');
  stream.responseHead(200, SSE_HEADERS);
  stream.responseChunk(sse({ event: 'endpoint', data: endpoint }));
  return stream;
}

function onStream(stream: HttpExchange<string>, message: unknown): void {
  stream.responseChunk(sse({ event: 'message', data: message }));
}

describe('HttpMeter', () => {
  describe('each message is recorded exactly once', () => {
    test('a modern request answered with JSON is served, whatever else the exchange reports afterwards', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts(modernToolsCall(1), modernHeaders()), 'caller');
      exchange.responseHead(200, JSON_HEADERS);
      const body = JSON.stringify(result(1, { resultType: 'complete', content: [] }));
      exchange.responseChunk(body.slice(0, 10));
      exchange.responseChunk(body.slice(10));
      exchange.responseEnd();
      exchange.responseEnd();
      exchange.clientClosed();
      exchange.upstreamFailed();
      expect(counted(recorded)).toEqual([{ method: 'tools/call', id: 1, outcome: 'served' }]);
      expect(recorded[0]).toMatchObject({ claimMismatch: false, attrs: 'caller', message: { era: 'modern', reason: 'modern-meta' } });
      expect(exchange.isSettled).toBe(true);
    });

    test('a modern request answered without resultType was served as legacy and keeps its claim mismatch', () => {
      const { meter, recorded } = harness();
      answerJson(meter.begin(postFacts(modernToolsCall(1), modernHeaders('tools/call', 'ekko')), 'caller'), 200, result(1));
      expect(recorded.map((o) => [o.outcome, o.claimMismatch])).toEqual([['served-as-legacy', true]]);
    });

    test('every element of a batch is settled by its own answer or by the status', () => {
      const { meter, recorded } = harness();
      const body = [legacyRequest('tools/list', 1), legacyRequest('tools/call', 2), notification('notifications/cancelled')];
      answerJson(meter.begin(postFacts(body), 'caller'), 200, [result(1), rpcError(2, -32601)]);
      expect(counted(recorded)).toEqual([
        { method: 'tools/list', id: 1, outcome: 'served' },
        { method: 'tools/call', id: 2, outcome: 'method-not-found' },
        { method: 'notifications/cancelled', id: null, outcome: 'accepted' },
      ]);
    });

    test('a notification answered 202 is accepted', () => {
      const { meter, recorded } = harness();
      accepted(meter.begin(postFacts(notification('notifications/initialized')), 'caller'));
      expect(counted(recorded)).toEqual([{ method: 'notifications/initialized', id: null, outcome: 'accepted' }]);
    });

    test('a request whose answer never came is no-response', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts(legacyRequest('tools/list', 1)), 'caller');
      exchange.responseHead(200, JSON_HEADERS);
      exchange.responseEnd();
      expect(counted(recorded)).toEqual([{ method: 'tools/list', id: 1, outcome: 'no-response' }]);
    });

    test('a client that goes away before the answer cancels the request', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts(modernToolsCall(1), modernHeaders()), 'caller');
      exchange.responseHead(200, SSE_HEADERS);
      exchange.responseChunk(sse({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }));
      exchange.clientClosed();
      exchange.responseEnd();
      expect(counted(recorded)).toEqual([{ method: 'tools/call', id: 1, outcome: 'cancelled' }]);
    });

    test('an upstream that cannot be reached leaves every message upstream-unreachable', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts([legacyRequest('tools/list', 1), notification('notifications/cancelled')]), 'caller');
      exchange.upstreamFailed();
      exchange.responseEnd();
      expect(recorded.map((o) => o.outcome)).toEqual(['upstream-unreachable', 'upstream-unreachable']);
    });

    test('an upstream that fails after answering its head leaves the request with no response', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts(legacyRequest('tools/list', 1)), 'caller');
      exchange.responseHead(200, SSE_HEADERS);
      exchange.upstreamFailed();
      expect(counted(recorded)).toEqual([{ method: 'tools/list', id: 1, outcome: 'no-response' }]);
    });
  });

  describe('an SSE answer', () => {
    const body = Buffer.from(
      sse(
        { event: 'message', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 0.5, message: 'half ½' } } },
        { event: 'message', id: 'e-2', data: serverRequest('srv-1', 'roots/list') },
        { event: 'message', id: 'e-3', data: result(7, { content: [{ type: 'text', text: 'héllo ✓ 工具 😀' }] }) },
      ),
      'utf8',
    );

    function feed(chunks: Buffer[], text = body) {
      // Small tables: this runs once per byte position.
      const { meter, recorded } = harness({ maxSessions: 4, maxChannels: 4, maxPendingAnswers: 4 });
      establishSession(meter, 'S1', '2025-06-18');
      recorded.length = 0;
      const exchange = meter.begin(postFacts(legacyRequest('tools/call', 7), session('S1')), 'caller');
      exchange.responseHead(200, SSE_HEADERS);
      const observer = createBodyObserver(undefined, (bytes) => exchange.responseBytes(bytes));
      for (const chunk of chunks) observer.write(chunk);
      observer.end(() => exchange.responseEnd());
      expect(Buffer.concat(chunks).equals(text)).toBe(true);
      return { meter, recorded };
    }

    test('split in two at every byte position is still matched to its request exactly once', () => {
      const outcomes = new Set<string>();
      for (let at = 0; at <= body.length; at += 1) {
        const { recorded } = feed([body.subarray(0, at), body.subarray(at)]);
        outcomes.add(JSON.stringify(counted(recorded)));
      }
      expect([...outcomes]).toEqual([JSON.stringify([{ method: 'tools/call', id: 7, outcome: 'served' }])]);
    });

    test('delivered one byte at a time is matched to its request exactly once', () => {
      const chunks = [...body].map((byte) => Buffer.from([byte]));
      expect(counted(feed(chunks).recorded)).toEqual([{ method: 'tools/call', id: 7, outcome: 'served' }]);
    });

    test('with CRLF line endings is matched to its request', () => {
      const crlf = Buffer.from(body.toString('utf8').replaceAll('\n', '\r\n'), 'utf8');
      for (const at of [1, 17, crlf.length >> 1, crlf.length - 3]) {
        expect(counted(feed([crlf.subarray(0, at), crlf.subarray(at)], crlf).recorded)).toEqual([{ method: 'tools/call', id: 7, outcome: 'served' }]);
      }
    });

    test('remembers the server requests it carried, so the client answer is grouped under them', () => {
      const { meter, recorded } = feed([body]);
      accepted(meter.begin(postFacts(result('srv-1', { roots: [] }), session('S1')), 'caller'));
      expect(recorded.at(-1)).toMatchObject({ outcome: 'accepted', message: { kind: 'response', method: 'roots/list', reason: 'client-response', version: '2025-06-18' } });
    });

    test('with an event larger than maxAnswerBytes keeps reading: a later answer is still matched, and no chunk throws', () => {
      const { meter, recorded } = harness({ maxAnswerBytes: 1024 });
      const exchange = meter.begin(postFacts(legacyRequest('tools/call', 7)), 'caller');
      exchange.responseHead(200, SSE_HEADERS);
      const text = sse(
        { event: 'message', data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(4_000) } } },
        { event: 'message', data: result(7) },
      );
      const thrown: string[] = [];
      for (let at = 0; at < text.length; at += 512) {
        try {
          exchange.responseChunk(text.slice(at, at + 512));
        } catch (error) {
          thrown.push((error as Error).message);
        }
      }
      exchange.responseEnd();
      expect(thrown).toEqual([]);
      expect(counted(recorded)).toEqual([{ method: 'tools/call', id: 7, outcome: 'served' }]);
    });

    test('that ends before the answer leaves the request with no response', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts(legacyRequest('tools/call', 7)), 'caller');
      exchange.responseHead(200, SSE_HEADERS);
      exchange.responseChunk(sse({ data: { jsonrpc: '2.0', method: 'notifications/message', params: {} } }));
      exchange.responseEnd();
      expect(counted(recorded)).toEqual([{ method: 'tools/call', id: 7, outcome: 'no-response' }]);
    });
  });

  describe('an error without an id', () => {
    test('in a JSON answer belongs to a lone request', () => {
      const { meter, recorded } = harness();
      answerJson(meter.begin(postFacts(modernToolsCall(1), modernHeaders()), 'caller'), 400, rpcError(null, -32022));
      expect(counted(recorded)).toEqual([{ method: 'tools/call', id: 1, outcome: 'unsupported-version' }]);
    });

    test('in an SSE answer belongs to a lone request', () => {
      const { meter, recorded } = harness();
      const exchange = meter.begin(postFacts(modernToolsCall(1), modernHeaders()), 'caller');
      exchange.responseHead(200, SSE_HEADERS);
      exchange.responseChunk(sse({ data: rpcError(null, -32020) }));
      exchange.responseEnd();
      expect(counted(recorded)).toEqual([{ method: 'tools/call', id: 1, outcome: 'header-mismatch' }]);
    });

    test('belongs to a lone notification', () => {
      const { meter, recorded } = harness();
      answerJson(meter.begin(postFacts(notification('notifications/cancelled'), { 'mcp-protocol-version': MODERN }), 'caller'), 400, rpcError(null, -32020));
      expect(counted(recorded)).toEqual([{ method: 'notifications/cancelled', id: null, outcome: 'header-mismatch' }]);
    });

    test('is not guessed onto one of several requests: each is settled by the status', () => {
      const { meter, recorded } = harness();
      answerJson(meter.begin(postFacts([legacyRequest('tools/list', 1), legacyRequest('tools/list', 2)]), 'caller'), 400, rpcError(null, -32022));
      expect(counted(recorded)).toEqual([
        { method: 'tools/list', id: 1, outcome: 'client-error' },
        { method: 'tools/list', id: 2, outcome: 'client-error' },
      ]);
    });
  });

  describe('HTTP+SSE', () => {
    test('the GET whose first event is endpoint is an HTTP+SSE stream open', () => {
      const { meter, recorded } = harness();
      openChannel(meter);
      expect(recorded.map((o) => o.message)).toEqual([{ kind: 'stream-open', method: 'GET', id: null, era: 'legacy', transport: 'http+sse', reason: 'sse-open', version: null }]);
      expect(recorded[0]?.outcome).toBe('served');
    });

    test('an answer on the GET stream before the POST got its 202 is matched to the POST', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      const post = meter.begin(postFacts(initializeRequest('2024-11-05'), {}, CHANNEL), 'poster');
      onStream(stream, result(0, { protocolVersion: '2024-11-05', capabilities: {}, serverInfo: { name: 's', version: '1' } }));
      accepted(post);
      expect(recorded.slice(1).map((o) => ({ ...o.message, outcome: o.outcome, attrs: o.attrs }))).toEqual([
        { kind: 'request', method: 'initialize', id: 0, era: 'legacy', transport: 'http+sse', reason: 'initialize', version: '2024-11-05', outcome: 'served', attrs: 'poster' },
      ]);
    });

    test('later messages on the channel carry the version its initialize negotiated', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      const init = meter.begin(postFacts(initializeRequest('2025-11-25'), {}, CHANNEL), 'poster');
      accepted(init);
      onStream(stream, result(0, { protocolVersion: '2024-11-05' }));
      accepted(meter.begin(postFacts(notification('notifications/initialized'), {}, CHANNEL), 'poster'));
      const list = meter.begin(postFacts(legacyRequest('tools/list', 1), {}, CHANNEL), 'poster');
      accepted(list);
      onStream(stream, result(1, { tools: [] }));
      expect(recorded.slice(1).map((o) => [o.message.method, o.message.reason, o.message.version, o.outcome])).toEqual([
        ['initialize', 'initialize', '2024-11-05', 'served'],
        ['notifications/initialized', 'initialize', '2024-11-05', 'accepted'],
        ['tools/list', 'sse-message', '2024-11-05', 'served'],
      ]);
      expect(meter.pendingCount).toBe(0);
    });

    test('a POST refused with 4xx settles by its status, and a late answer on the stream is not counted again', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      const post = meter.begin(postFacts(legacyRequest('tools/list', 3), {}, CHANNEL), 'poster');
      post.responseHead(400, { 'content-type': 'text/plain' });
      post.responseChunk('Bad Request');
      post.responseEnd();
      onStream(stream, result(3));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 3, outcome: 'client-error' }]);
      expect(meter.pendingCount).toBe(0);
    });

    test('a POST answered inline with 200 (an endpoint merged into a Streamable one) settles from its body', () => {
      const { meter, recorded } = harness();
      openChannel(meter);
      answerJson(meter.begin(postFacts(legacyRequest('tools/list', 4), {}, CHANNEL), 'poster'), 200, result(4, { tools: [] }));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 4, outcome: 'served' }]);
      expect(meter.pendingCount).toBe(0);
    });

    test('a POST answered 200 without its answer still waits for the stream', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      answerJson(meter.begin(postFacts(legacyRequest('tools/list', 5), {}, CHANNEL), 'poster'), 200, { ok: true });
      expect(recorded).toHaveLength(1);
      onStream(stream, result(5, { tools: [] }));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 5, outcome: 'served' }]);
    });

    test('a POST refused with a JSON-RPC error settles by its code', () => {
      const { meter, recorded } = harness();
      openChannel(meter);
      answerJson(meter.begin(postFacts(legacyRequest('tools/list', 3), {}, CHANNEL), 'poster'), 404, rpcError(3, -32001));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 3, outcome: 'session-gone' }]);
    });

    test('a POST whose answer already arrived on the stream is not counted again when the POST then fails', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      const post = meter.begin(postFacts(legacyRequest('tools/list', 3), {}, CHANNEL), 'poster');
      onStream(stream, result(3));
      post.responseHead(500, {});
      post.responseEnd();
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 3, outcome: 'served' }]);
    });

    test('a POST to an unreachable upstream is upstream-unreachable', () => {
      const { meter, recorded } = harness();
      openChannel(meter);
      meter.begin(postFacts(legacyRequest('tools/list', 3), {}, CHANNEL), 'poster').upstreamFailed();
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 3, outcome: 'upstream-unreachable' }]);
      expect(meter.pendingCount).toBe(0);
    });

    test.each([
      { how: 'the server ends the stream', close: (stream: HttpExchange<string>) => stream.responseEnd() },
      { how: 'the client drops the stream', close: (stream: HttpExchange<string>) => stream.clientClosed() },
    ])('when $how, its pending requests get no-response', ({ close }) => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      accepted(meter.begin(postFacts(legacyRequest('tools/call', 4), {}, CHANNEL), 'poster'));
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 5), {}, CHANNEL), 'poster'));
      expect(meter.pendingCount).toBe(2);
      close(stream);
      expect(countedById(recorded.slice(1))).toEqual([
        { method: 'tools/call', id: 4, outcome: 'no-response' },
        { method: 'tools/list', id: 5, outcome: 'no-response' },
      ]);
      expect(meter.pendingCount).toBe(0);
    });

    test('closing one channel leaves the requests of another waiting', () => {
      const { meter, recorded } = harness();
      const first = openChannel(meter, '/messages?sessionId=one');
      const second = openChannel(meter, '/messages?sessionId=two');
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 1), {}, '/messages?sessionId=one'), 'poster'));
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 1), {}, '/messages?sessionId=two'), 'poster'));
      first.responseEnd();
      onStream(second, result(1));
      expect(recorded.slice(2).map((o) => o.outcome)).toEqual(['no-response', 'served']);
    });

    test('two waiting requests that reuse one id are both counted', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 1), {}, CHANNEL), 'first'));
      accepted(meter.begin(postFacts(legacyRequest('tools/call', 1), {}, CHANNEL), 'second'));
      onStream(stream, result(1));
      stream.responseEnd();
      expect(recorded.slice(1).map((o) => o.attrs).sort()).toEqual(['first', 'second']);
    });

    test('a server request on the stream names the method the client answer is grouped under', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      onStream(stream, serverRequest('srv-9', 'sampling/createMessage'));
      accepted(meter.begin(postFacts(result('srv-9', { content: {} }), {}, CHANNEL), 'poster'));
      expect(recorded.at(-1)).toMatchObject({ outcome: 'accepted', message: { method: 'sampling/createMessage', transport: 'http+sse', reason: 'client-response' } });
    });

    test('a relative endpoint URI is resolved against the GET that received it', () => {
      const { meter, recorded } = harness({ httpSseMessagePaths: [] });
      const stream = meter.begin(getFacts({}, '/mcp/sse'), 'stream');
      stream.responseHead(200, SSE_HEADERS);
      stream.responseChunk(sse({ event: 'endpoint', data: 'messages?sessionId=rel' }));
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 1), {}, '/mcp/messages?sessionId=rel'), 'poster'));
      onStream(stream, result(1));
      expect(recorded.at(-1)).toMatchObject({ outcome: 'served', message: { transport: 'http+sse', reason: 'sse-message' } });
    });

    test('an absolute endpoint URI on the host the client connected to opens the channel', () => {
      const { meter, recorded } = harness();
      const host = { host: 'mcp.example.com:8080' };
      const stream = openChannel(meter, `http://mcp.example.com:8080${CHANNEL}`, host);
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 1), host, CHANNEL), 'poster'));
      onStream(stream, result(1));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 1, outcome: 'served' }]);
    });

    test('an endpoint URI on another origin opens no channel', () => {
      const { meter, recorded } = harness({ httpSseMessagePaths: [] });
      const stream = openChannel(meter, 'https://elsewhere.example/messages?sessionId=x');
      const post = meter.begin(postFacts(legacyRequest('tools/list', 1), {}, '/messages?sessionId=x'), 'poster');
      expect(post.classification.messages[0]?.transport).toBe('streamable-http');
      accepted(post);
      onStream(stream, result(1));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 1, outcome: 'no-response' }]);
    });
  });

  describe('a sessionless GET', () => {
    test('waits for its first event and is a legacy stream when that event is not endpoint', () => {
      const { meter, recorded } = harness();
      const stream = meter.begin(getFacts({}), 'stream');
      stream.responseHead(200, SSE_HEADERS);
      expect(recorded).toEqual([]);
      stream.responseChunk(sse({ event: 'message', data: { jsonrpc: '2.0', method: 'notifications/message', params: {} } }));
      expect(recorded.map((o) => [o.message.transport, o.message.reason, o.outcome])).toEqual([['streamable-http', 'get-stream', 'served']]);
    });

    test('answered 405 is a client error at once', () => {
      const { meter, recorded } = harness();
      const stream = meter.begin(getFacts({}), 'stream');
      stream.responseHead(405, {});
      stream.responseEnd();
      expect(counted(recorded)).toEqual([{ method: 'GET', id: null, outcome: 'client-error' }]);
    });
  });

  describe('legacy sessions', () => {
    test('are remembered from an initialize answer with mcp-session-id, with the negotiated version', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-06-18', '2025-11-25');
      expect(recorded.map((o) => [o.message.method, o.message.version, o.outcome])).toEqual([['initialize', '2025-06-18', 'served']]);
      expect(meter.sessionCount).toBe(1);
      const later = meter.begin(postFacts(legacyRequest('tools/list', 1), session('S1')), 'caller');
      expect(later.classification.messages.map((m) => [m.reason, m.version])).toEqual([['session-header', '2025-06-18']]);
      const stream = meter.begin(getFacts(session('S1')), 'caller');
      expect(stream.classification.messages.map((m) => [m.reason, m.version])).toEqual([['get-stream', '2025-06-18']]);
    });

    test('are remembered from an initialize answered over SSE', () => {
      const { meter } = harness();
      const init = meter.begin(postFacts(initializeRequest('2025-11-25')), 'init');
      init.responseHead(200, { ...SSE_HEADERS, 'mcp-session-id': 'S2' });
      init.responseChunk(sse({ event: 'message', data: result(0, { protocolVersion: '2025-11-25' }) }));
      init.responseEnd();
      expect(meter.lookups.sessionVersion('S2')).toBe('2025-11-25');
    });

    test('are not remembered when initialize fails', () => {
      const { meter } = harness();
      answerJson(meter.begin(postFacts(initializeRequest('2025-11-25')), 'init'), 400, rpcError(0, -32602), session('S3'));
      expect(meter.sessionCount).toBe(0);
    });

    test('are forgotten on a 404 and on a successful DELETE', () => {
      const { meter } = harness();
      establishSession(meter, 'S1', '2025-06-18');
      establishSession(meter, 'S2', '2025-06-18');
      answerJson(meter.begin(postFacts(legacyRequest('tools/list', 1), session('S1')), 'caller'), 404, rpcError(null, -32001));
      const del = meter.begin(deleteFacts(session('S2')), 'caller');
      del.responseHead(200, {});
      del.responseEnd();
      expect(meter.sessionCount).toBe(0);
      const later = meter.begin(postFacts(legacyRequest('tools/list', 2), session('S1')), 'caller');
      expect(later.classification.messages[0]?.version).toBe('2025-03-26');
    });

    test('a 404 to a session request is session-gone', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-06-18');
      answerJson(meter.begin(postFacts(legacyRequest('tools/list', 1), session('S1')), 'caller'), 404, rpcError(1, -32001));
      expect(recorded.at(-1)?.outcome).toBe('session-gone');
    });

    test('a GET stream of the session names the server requests answered later', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-06-18');
      const stream = meter.begin(getFacts(session('S1')), 'caller');
      stream.responseHead(200, SSE_HEADERS);
      stream.responseChunk(sse({ event: 'message', id: 'g-1', data: serverRequest(5, 'elicitation/create') }));
      accepted(meter.begin(postFacts(result(5, { action: 'accept' }), session('S1')), 'caller'));
      expect(recorded.slice(1).map((o) => [o.message.method, o.message.reason, o.outcome])).toEqual([
        ['GET', 'get-stream', 'served'],
        ['elicitation/create', 'client-response', 'accepted'],
      ]);
    });
  });

  describe('a 2025-11-25 primed stream', () => {
    function primedRequest(meter: HttpMeter<string>) {
      establishSession(meter, 'S1', '2025-11-25');
      const post = meter.begin(postFacts(legacyRequest('tools/call', 7), session('S1')), 'poster');
      post.responseHead(200, SSE_HEADERS);
      post.responseChunk('id: ev-1\ndata: \n\n');
      return post;
    }

    function resume(meter: HttpMeter<string>, answer: unknown) {
      const get = meter.begin(getFacts({ ...session('S1'), 'last-event-id': 'ev-1' }), 'resumer');
      get.responseHead(200, SSE_HEADERS);
      get.responseChunk(sse({ event: 'message', id: 'ev-2', data: answer }));
      get.responseEnd();
    }

    test.each([
      { who: 'the client', drop: (post: HttpExchange<string>) => post.clientClosed() },
      { who: 'the server', drop: (post: HttpExchange<string>) => post.responseEnd() },
    ])('dropped by $who and resumed with Last-Event-ID delivers the answer to the original request', ({ drop }) => {
      const { meter, recorded } = harness();
      drop(primedRequest(meter));
      expect(meter.pendingCount).toBe(1);
      resume(meter, result(7, { content: [] }));
      expect(recorded.slice(1).map((o) => [o.message.method, o.message.reason, o.message.version, o.outcome, o.attrs])).toEqual([
        ['GET', 'get-resume', '2025-11-25', 'served', 'resumer'],
        ['tools/call', 'session-header', '2025-11-25', 'served', 'poster'],
      ]);
      expect(meter.pendingCount).toBe(0);
    });

    test('resumed with an error settles by its code', () => {
      const { meter, recorded } = harness();
      primedRequest(meter).clientClosed();
      resume(meter, rpcError(7, -32602));
      expect(recorded.at(-1)).toMatchObject({ outcome: 'invalid-params', message: { method: 'tools/call' } });
    });

    test('a stream without an event id dropped by the client is cancelled, not parked', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-11-25');
      const post = meter.begin(postFacts(legacyRequest('tools/call', 7), session('S1')), 'poster');
      post.responseHead(200, SSE_HEADERS);
      post.responseChunk(sse({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } }));
      post.clientClosed();
      expect(recorded.at(-1)?.outcome).toBe('cancelled');
      expect(meter.pendingCount).toBe(0);
    });
  });

  describe('a cancelled legacy request', () => {
    function cancelIn(meter: HttpMeter<string>, requestId: JsonRpcId, headers: Headers, path = '/mcp') {
      accepted(meter.begin(postFacts({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'gave up' } }, headers, path), 'poster'));
    }

    function inFlight(meter: HttpMeter<string>, id: JsonRpcId) {
      const post = meter.begin(postFacts(legacyRequest('tools/call', id), session('S1')), 'poster');
      post.responseHead(200, SSE_HEADERS);
      post.responseChunk(sse({ data: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } }));
      return post;
    }

    test('still streaming is cancelled when the cancel arrives, and not counted again when its stream ends', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-11-25');
      const post = inFlight(meter, 7);
      cancelIn(meter, 7, session('S1'));
      expect(counted(recorded.slice(1))).toEqual([
        { method: 'tools/call', id: 7, outcome: 'cancelled' },
        { method: 'notifications/cancelled', id: null, outcome: 'accepted' },
      ]);
      post.responseEnd();
      expect(recorded).toHaveLength(3);
    });

    test('whose dropped stream parked it is cancelled when the cancel arrives, not after the pending TTL', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-11-25');
      const post = inFlight(meter, 7);
      post.responseChunk('id: ev-1\ndata: \n\n');
      post.clientClosed();
      expect(meter.pendingCount).toBe(1);
      cancelIn(meter, 7, session('S1'));
      expect(counted(recorded.slice(1, 2))).toEqual([{ method: 'tools/call', id: 7, outcome: 'cancelled' }]);
      expect(meter.pendingCount).toBe(0);
    });

    test('a cancel in another session, or for another id, settles nothing', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-11-25');
      establishSession(meter, 'S2', '2025-11-25');
      const post = inFlight(meter, 7);
      cancelIn(meter, 7, session('S2'));
      cancelIn(meter, 8, session('S1'));
      post.responseChunk(sse({ data: result(7) }));
      post.responseEnd();
      expect(recorded.filter((o) => o.message.method === 'tools/call').map((o) => o.outcome)).toEqual(['served']);
    });

    test('a DELETE of its session cancels what is still streaming or parked', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-11-25');
      const streaming = inFlight(meter, 7);
      const dropped = inFlight(meter, 8);
      dropped.responseChunk('id: ev-1\ndata: \n\n');
      dropped.clientClosed();
      const remove = meter.begin(deleteFacts(session('S1')), 'poster');
      // The server closes the session's streams before it answers the DELETE.
      streaming.responseEnd();
      remove.responseHead(200, {});
      remove.responseEnd();
      expect(countedById(recorded.slice(1))).toEqual([
        { method: 'tools/call', id: 7, outcome: 'cancelled' },
        { method: 'tools/call', id: 8, outcome: 'cancelled' },
        { method: 'DELETE', id: null, outcome: 'served' },
      ]);
      expect(meter.pendingCount).toBe(0);
    });

    test('when its session is gone, a request the client dropped is cancelled and one the server dropped gets no-response', () => {
      const { meter, recorded } = harness();
      establishSession(meter, 'S1', '2025-11-25');
      const byClient = inFlight(meter, 7);
      byClient.responseChunk('id: ev-1\ndata: \n\n');
      byClient.clientClosed();
      const byServer = inFlight(meter, 8);
      byServer.responseChunk('id: ev-2\ndata: \n\n');
      byServer.responseEnd();
      expect(meter.pendingCount).toBe(2);
      answerJson(meter.begin(postFacts(legacyRequest('tools/list', 9), session('S1')), 'poster'), 404, rpcError(null, -32001));
      expect(countedById(recorded.slice(1))).toEqual([
        { method: 'tools/call', id: 7, outcome: 'cancelled' },
        { method: 'tools/call', id: 8, outcome: 'no-response' },
        { method: 'tools/list', id: 9, outcome: 'session-gone' },
      ]);
      expect(meter.pendingCount).toBe(0);
    });

    test('on an HTTP+SSE channel is cancelled when the cancel is posted to the channel', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      accepted(meter.begin(postFacts(legacyRequest('tools/call', 4), {}, CHANNEL), 'poster'));
      cancelIn(meter, 4, {}, CHANNEL);
      onStream(stream, result(4));
      expect(counted(recorded.slice(1))).toEqual([
        { method: 'tools/call', id: 4, outcome: 'cancelled' },
        { method: 'notifications/cancelled', id: null, outcome: 'accepted' },
      ]);
      expect(meter.pendingCount).toBe(0);
    });
  });

  describe('bounded tables', () => {
    test('past maxPendingAnswers the oldest waiting request is evicted and recorded as no-response', () => {
      const { meter, recorded } = harness({ maxPendingAnswers: 2 });
      const stream = openChannel(meter);
      for (const id of [1, 2, 3]) accepted(meter.begin(postFacts(legacyRequest('tools/list', id), {}, CHANNEL), 'poster'));
      expect(counted(recorded.slice(1))).toEqual([{ method: 'tools/list', id: 1, outcome: 'no-response' }]);
      expect(meter.pendingCount).toBe(2);
      for (const id of [1, 2, 3]) onStream(stream, result(id));
      expect(counted(recorded.slice(1))).toEqual([
        { method: 'tools/list', id: 1, outcome: 'no-response' },
        { method: 'tools/list', id: 2, outcome: 'served' },
        { method: 'tools/list', id: 3, outcome: 'served' },
      ]);
    });

    test('past maxSessions the least recently used session is forgotten', () => {
      const { meter } = harness({ maxSessions: 1 });
      establishSession(meter, 'S1', '2025-06-18');
      establishSession(meter, 'S2', '2025-11-25');
      expect(meter.sessionCount).toBe(1);
      expect(meter.lookups.sessionVersion('S1')).toBeUndefined();
      expect(meter.lookups.sessionVersion('S2')).toBe('2025-11-25');
    });

    test('settleAllPending records every waiting request with the outcome given, once', () => {
      const { meter, recorded } = harness();
      const stream = openChannel(meter);
      accepted(meter.begin(postFacts(legacyRequest('tools/list', 1), {}, CHANNEL), 'poster'));
      accepted(meter.begin(postFacts(legacyRequest('tools/call', 2), {}, CHANNEL), 'poster'));
      meter.settleAllPending('cancelled');
      onStream(stream, result(1));
      stream.responseEnd();
      meter.settleAllPending('no-response');
      expect(countedById(recorded.slice(1))).toEqual([
        { method: 'tools/list', id: 1, outcome: 'cancelled' },
        { method: 'tools/call', id: 2, outcome: 'cancelled' },
      ]);
      expect(meter.pendingCount).toBe(0);
    });
  });

  test('every observation carries the attributes of the exchange that classified it', () => {
    const { meter, recorded } = harness();
    answerJson(meter.begin(postFacts(legacyRequest('tools/list', 1)), 'alice'), 200, result(1));
    accepted(meter.begin(postFacts(notification('notifications/cancelled')), 'bob'));
    expect(recorded.map((o) => o.attrs)).toEqual(['alice', 'bob']);
  });

  test('a body that is not a JSON-RPC message is still counted once, by its status', () => {
    const { meter, recorded } = harness();
    answerJson(meter.begin(postFacts('just a string'), 'caller'), 400, { error: 'nope' });
    const outcomes: Outcome[] = recorded.map((o) => o.outcome);
    expect(recorded.map((o) => [o.message.era, o.message.reason])).toEqual([['unknown', 'invalid-message']]);
    expect(outcomes).toEqual(['client-error']);
  });
});
