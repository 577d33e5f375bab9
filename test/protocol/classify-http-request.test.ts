import { describe, expect, test } from 'vitest';
import type { ClassifiedMessage, ClassifyLookups, HttpSseChannel } from '../../server/protocol/classified-message.js';
import { classifyHttpRequest, type HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import type { JsonRpcId } from '../../server/protocol/read-json-rpc.js';

type Headers = Record<string, string | string[] | undefined>;
type Summary = Pick<ClassifiedMessage, 'kind' | 'method' | 'era' | 'reason' | 'version' | 'transport'>;

const MODERN = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

// ---- messages ---------------------------------------------------------------------------------

function modernToolsCall(name = 'echo', version = MODERN, id: JsonRpcId = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: { [META_VERSION]: version } } };
}

function modernRequest(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id: 2, method, params: { ...params, _meta: { [META_VERSION]: MODERN, ...meta } } };
}

function initializeRequest(requested: string | null = '2025-11-25', extraParams: Record<string, unknown> = {}) {
  const params: Record<string, unknown> = { capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' }, ...extraParams };
  if (requested !== null) params.protocolVersion = requested;
  return { jsonrpc: '2.0', id: 0, method: 'initialize', params };
}

function legacyToolsList(id: JsonRpcId = 3) {
  return { jsonrpc: '2.0', id, method: 'tools/list', params: {} };
}

function initializedNotification() {
  return { jsonrpc: '2.0', method: 'notifications/initialized' };
}

function cancelledNotification() {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } };
}

function clientResponse(id: JsonRpcId | null = 5) {
  return { jsonrpc: '2.0', id, result: { roots: [] } };
}

// ---- HTTP requests ----------------------------------------------------------------------------

function post(body: unknown, headers: Headers = {}, path = '/mcp'): HttpRequestFacts {
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    bodyTooLarge: false,
  };
}

function oversizedPost(headers: Headers = {}, path = '/mcp', body?: unknown): HttpRequestFacts {
  return { ...post(body ?? '', headers, path), body: undefined, bodyTooLarge: true };
}

function streamRequest(method: 'GET' | 'DELETE' | 'PUT', headers: Headers = {}, path = '/mcp'): HttpRequestFacts {
  return { method, path, headers, body: undefined, bodyTooLarge: false };
}

/** Headers a modern client mirrors from a request body. */
function modernHeaders(method: string, name?: string, version = MODERN): Headers {
  return { 'mcp-protocol-version': version, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) };
}

function sessionHeader(id = 's-1'): Headers {
  return { 'mcp-session-id': id };
}

function base64Sentinel(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

// ---- lookups ----------------------------------------------------------------------------------

interface LookupState {
  sessions?: Record<string, string | undefined>;
  channels?: Record<string, HttpSseChannel>;
  serverRequests?: Record<string, string>;
}

/** Lookups backed by plain records; server requests are keyed `${scope}|${id}`. */
function lookups(state: LookupState = {}): ClassifyLookups & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    sessionVersion: (id) => state.sessions?.[id],
    httpSseChannel: (path) => state.channels?.[path],
    serverRequestMethod: (scope, id) => {
      asked.push(`${scope}|${id}`);
      return state.serverRequests?.[`${scope}|${id}`];
    },
  };
}

function summary(message: ClassifiedMessage): Summary {
  const { kind, method, era, reason, version, transport } = message;
  return { kind, method, era, reason, version, transport };
}

function legacy(kind: Summary['kind'], method: string, reason: Summary['reason'], version: string | null, transport: Summary['transport'] = 'streamable-http'): Summary {
  return { kind, method, era: 'legacy', reason, version, transport };
}

function unknown(reason: Summary['reason'], method = '(unparsed)'): Summary {
  return { kind: 'other', method, era: 'unknown', reason, version: null, transport: 'streamable-http' };
}

interface Row {
  name: string;
  facts: HttpRequestFacts;
  state?: LookupState;
  expected: Summary[];
}

function classifyRows(rows: Row[]) {
  for (const { name, facts, state, expected } of rows) {
    test(name, () => {
      const classification = classifyHttpRequest(facts, lookups(state));
      expect(classification.messages.map(summary)).toEqual(expected);
    });
  }
}

const CHANNEL_PATH = '/messages?sessionId=abc';

describe('classifyHttpRequest', () => {
  test('names the requests a notifications/cancelled gives up on, and where their answers would arrive', () => {
    const classification = classifyHttpRequest(post([cancelledNotification(), { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }], sessionHeader('s-3')), lookups());
    expect(classification.cancels).toEqual([3]);
    expect(classification.answersArriveOn).toBe('session:s-3');
    expect(classifyHttpRequest(post(legacyToolsList(), sessionHeader('s-3')), lookups()).cancels).toEqual([]);
  });

  test('a version header sent twice is counted by its first value, which the Python SDK routes by', () => {
    const [message] = classifyHttpRequest(post(legacyToolsList(), { 'mcp-protocol-version': '2025-11-25, 2026-07-28', 'mcp-method': 'tools/list' }), lookups()).messages;
    expect(message).toMatchObject({ era: 'legacy', reason: 'legacy-version-header', version: '2025-11-25' });
    const [modern] = classifyHttpRequest(post(legacyToolsList(), { 'mcp-protocol-version': '2026-07-28, 2025-11-25', 'mcp-method': 'tools/list' }), lookups()).messages;
    expect(modern).toMatchObject({ era: 'modern', reason: 'modern-malformed', version: '2026-07-28' });
  });

  describe('a request carrying the modern envelope', () => {
    classifyRows([
      {
        name: 'is modern, with the version from _meta',
        facts: post(modernToolsCall(), modernHeaders('tools/call', 'echo')),
        expected: [{ kind: 'request', method: 'tools/call', era: 'modern', reason: 'modern-meta', version: MODERN, transport: 'streamable-http' }],
      },
      {
        name: 'is modern even when it also carries a session header of a known session',
        facts: post(modernToolsCall(), { ...modernHeaders('tools/call', 'echo'), ...sessionHeader() }),
        state: { sessions: { 's-1': '2025-06-18' } },
        expected: [{ kind: 'request', method: 'tools/call', era: 'modern', reason: 'modern-meta', version: MODERN, transport: 'streamable-http' }],
      },
      {
        name: 'is modern even when its version header names a legacy version',
        facts: post(modernToolsCall(), modernHeaders('tools/call', 'echo', '2025-06-18')),
        expected: [{ kind: 'request', method: 'tools/call', era: 'modern', reason: 'modern-meta', version: MODERN, transport: 'streamable-http' }],
      },
      {
        name: 'is modern whatever version string the envelope names: the mechanism decides, not the value',
        facts: post(modernToolsCall('echo', '2025-06-18')),
        expected: [{ kind: 'request', method: 'tools/call', era: 'modern', reason: 'modern-meta', version: '2025-06-18', transport: 'streamable-http' }],
      },
      {
        name: 'is legacy when _meta carries only a progress token',
        facts: post({ ...legacyToolsList(), params: { _meta: { progressToken: 7 } } }),
        expected: [legacy('request', 'tools/list', 'assumed-2025-03-26', '2025-03-26')],
      },
    ]);

    test('takes its clientInfo hint from the reserved _meta key', () => {
      const body = modernRequest('tools/list', {}, { 'io.modelcontextprotocol/clientInfo': { name: 'cli', version: '2.0' } });
      expect(classifyHttpRequest(post(body, modernHeaders('tools/list')), lookups()).clientInfo).toEqual({ name: 'cli', version: '2.0' });
    });

    test('names the session it came with, without becoming a session request', () => {
      const classification = classifyHttpRequest(post(modernToolsCall(), sessionHeader('s-9')), lookups());
      expect(classification.sessionId).toBe('s-9');
      expect(classification.messages[0]?.era).toBe('modern');
    });
  });

  describe('initialize', () => {
    classifyRows([
      {
        name: 'is legacy, with the requested version until the answer negotiates one',
        facts: post(initializeRequest('2025-11-25')),
        expected: [legacy('request', 'initialize', 'initialize', '2025-11-25')],
      },
      {
        name: 'is legacy even when it carries the modern envelope and modern headers',
        facts: post(initializeRequest('2025-11-25', { _meta: { [META_VERSION]: MODERN } }), modernHeaders('initialize')),
        expected: [legacy('request', 'initialize', 'initialize', '2025-11-25')],
      },
      {
        name: 'is filed under initialize, not under the session it names',
        facts: post(initializeRequest('2025-06-18'), sessionHeader()),
        state: { sessions: { 's-1': '2025-03-26' } },
        expected: [legacy('request', 'initialize', 'initialize', '2025-06-18')],
      },
      {
        name: 'on an HTTP+SSE message endpoint is legacy over http+sse',
        facts: post(initializeRequest('2024-11-05'), {}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: { key: CHANNEL_PATH, version: undefined } } },
        expected: [legacy('request', 'initialize', 'initialize', '2024-11-05', 'http+sse')],
      },
      {
        name: 'without a requested version has no version',
        facts: post(initializeRequest(null)),
        expected: [legacy('request', 'initialize', 'initialize', null)],
      },
    ]);

    test('hands over the self-reported clientInfo as a hint', () => {
      expect(classifyHttpRequest(post(initializeRequest()), lookups()).clientInfo).toEqual({ name: 'probe', version: '1.0.0' });
    });

    test('never sets claimMismatch, whatever the headers say', () => {
      const classification = classifyHttpRequest(post(initializeRequest(), modernHeaders('tools/call', 'other')), lookups());
      expect(classification.claimMismatch).toBe(false);
    });
  });

  describe('claimMismatch of a modern request', () => {
    const toolsCall = modernToolsCall('echo');
    const rows = [
      { name: 'all mirrored headers match', body: toolsCall, headers: modernHeaders('tools/call', 'echo'), mismatch: false },
      { name: 'the version header differs from _meta', body: toolsCall, headers: modernHeaders('tools/call', 'echo', 'DRAFT-2026-v1'), mismatch: true },
      { name: 'the version header is missing', body: toolsCall, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo' }, mismatch: true },
      { name: 'Mcp-Method names another method', body: toolsCall, headers: modernHeaders('tools/list', 'echo'), mismatch: true },
      { name: 'Mcp-Method is missing', body: toolsCall, headers: { 'mcp-protocol-version': MODERN, 'mcp-name': 'echo' }, mismatch: true },
      { name: 'Mcp-Name names another tool', body: toolsCall, headers: modernHeaders('tools/call', 'other'), mismatch: true },
      { name: 'Mcp-Name is missing', body: toolsCall, headers: modernHeaders('tools/call'), mismatch: true },
      { name: 'Mcp-Name is the base64 form of the tool name', body: toolsCall, headers: modernHeaders('tools/call', base64Sentinel('echo')), mismatch: false },
      { name: 'Mcp-Name is the base64 form of another name', body: toolsCall, headers: modernHeaders('tools/call', base64Sentinel('ekko')), mismatch: true },
      { name: 'Mcp-Name is a malformed base64 form', body: toolsCall, headers: modernHeaders('tools/call', '=?base64?not base64!?='), mismatch: true },
      {
        name: 'Mcp-Name is the base64 form of a non-ASCII tool name',
        body: modernToolsCall('café ☕'),
        headers: modernHeaders('tools/call', base64Sentinel('café ☕')),
        mismatch: false,
      },
      {
        name: 'Mcp-Name carries the resource URI of resources/read',
        body: modernRequest('resources/read', { uri: 'file:///a.txt' }),
        headers: modernHeaders('resources/read', 'file:///a.txt'),
        mismatch: false,
      },
      {
        name: 'Mcp-Name carries another URI than resources/read reads',
        body: modernRequest('resources/read', { uri: 'file:///a.txt' }),
        headers: modernHeaders('resources/read', 'file:///b.txt'),
        mismatch: true,
      },
      { name: 'Mcp-Name carries the prompt of prompts/get', body: modernRequest('prompts/get', { name: 'greet' }), headers: modernHeaders('prompts/get', 'greet'), mismatch: false },
      { name: 'a method without a name needs no Mcp-Name', body: modernRequest('tools/list'), headers: modernHeaders('tools/list'), mismatch: false },
    ];
    for (const { name, body, headers, mismatch } of rows) {
      test(`is ${mismatch} when ${name}`, () => {
        const classification = classifyHttpRequest(post(body, headers), lookups());
        expect(classification.messages.map((m) => m.era)).toEqual(['modern']);
        expect(classification.claimMismatch).toBe(mismatch);
      });
    }

    test('a mismatch never changes the classification: the body decides', () => {
      const agreeing = classifyHttpRequest(post(toolsCall, modernHeaders('tools/call', 'echo')), lookups());
      const disagreeing = classifyHttpRequest(post(toolsCall, modernHeaders('prompts/get', 'x', '1900-01-01')), lookups());
      expect(disagreeing.messages).toEqual(agreeing.messages);
    });

    test('is false for a legacy request whose stray modern headers disagree', () => {
      const classification = classifyHttpRequest(post(legacyToolsList(), { ...sessionHeader(), 'mcp-method': 'tools/call' }), lookups());
      expect(classification.messages[0]?.reason).toBe('session-header');
      expect(classification.claimMismatch).toBe(false);
    });
  });

  describe('a notification', () => {
    classifyRows([
      {
        name: 'notifications/initialized is part of the legacy handshake',
        facts: post(initializedNotification()),
        expected: [legacy('notification', 'notifications/initialized', 'initialize', '2025-03-26')],
      },
      {
        name: 'notifications/initialized takes the version of its session',
        facts: post(initializedNotification(), { ...sessionHeader(), 'mcp-protocol-version': '2025-11-25' }),
        state: { sessions: { 's-1': '2025-06-18' } },
        expected: [legacy('notification', 'notifications/initialized', 'initialize', '2025-06-18')],
      },
      {
        name: 'with a session header is a session notification with the session version',
        facts: post(cancelledNotification(), sessionHeader()),
        state: { sessions: { 's-1': '2025-11-25' } },
        expected: [legacy('notification', 'notifications/cancelled', 'session-header', '2025-11-25')],
      },
      {
        name: 'with an unknown session falls back to the version header',
        facts: post(cancelledNotification(), { ...sessionHeader(), 'mcp-protocol-version': '2025-06-18' }),
        expected: [legacy('notification', 'notifications/cancelled', 'session-header', '2025-06-18')],
      },
      {
        name: 'with a legacy version header and no session is legacy by its header',
        facts: post(cancelledNotification(), { 'mcp-protocol-version': '2025-06-18' }),
        expected: [legacy('notification', 'notifications/cancelled', 'legacy-version-header', '2025-06-18')],
      },
      {
        name: 'with a modern version header and no session is a modern notification',
        facts: post(cancelledNotification(), { 'mcp-protocol-version': MODERN }),
        expected: [{ kind: 'notification', method: 'notifications/cancelled', era: 'modern', reason: 'modern-notification', version: MODERN, transport: 'streamable-http' }],
      },
      {
        name: 'with an unheard-of version header is a modern claim',
        facts: post(cancelledNotification(), { 'mcp-protocol-version': 'DRAFT-2026-v1' }),
        expected: [{ kind: 'notification', method: 'notifications/cancelled', era: 'modern', reason: 'modern-notification', version: 'DRAFT-2026-v1', transport: 'streamable-http' }],
      },
      {
        name: 'with nothing at all falls under the absent-header rule',
        facts: post(cancelledNotification()),
        expected: [legacy('notification', 'notifications/cancelled', 'assumed-2025-03-26', '2025-03-26')],
      },
    ]);
  });

  describe('a client response', () => {
    classifyRows([
      {
        name: 'is grouped under the server request it answers in its session',
        facts: post(clientResponse(5), sessionHeader()),
        state: { sessions: { 's-1': '2025-06-18' }, serverRequests: { 'session:s-1|5': 'sampling/createMessage' } },
        expected: [legacy('response', 'sampling/createMessage', 'client-response', '2025-06-18')],
      },
      {
        name: 'answering an unknown server request is grouped under (response)',
        facts: post(clientResponse(6), sessionHeader()),
        state: { sessions: { 's-1': '2025-06-18' }, serverRequests: { 'session:s-1|5': 'sampling/createMessage' } },
        expected: [legacy('response', '(response)', 'client-response', '2025-06-18')],
      },
      {
        name: 'without a session is grouped under (response)',
        facts: post(clientResponse(5)),
        state: { serverRequests: { 'session:s-1|5': 'sampling/createMessage' } },
        expected: [legacy('response', '(response)', 'client-response', '2025-03-26')],
      },
      {
        name: 'on an HTTP+SSE channel is grouped under the request sent on that channel',
        facts: post(clientResponse('srv-1'), {}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: { key: CHANNEL_PATH, version: '2024-11-05' } }, serverRequests: { [`sse:${CHANNEL_PATH}|srv-1`]: 'roots/list' } },
        expected: [legacy('response', 'roots/list', 'client-response', '2024-11-05', 'http+sse')],
      },
      {
        name: 'carrying an error is still a client response',
        facts: post({ jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'no' } }, sessionHeader()),
        state: { serverRequests: { 'session:s-1|5': 'roots/list' } },
        expected: [legacy('response', 'roots/list', 'client-response', '2025-03-26')],
      },
      {
        name: 'with a null id is grouped under (response)',
        facts: post(clientResponse(null), sessionHeader()),
        expected: [legacy('response', '(response)', 'client-response', '2025-03-26')],
      },
    ]);

    test('looks the answered method up in the scope of its session, by id', () => {
      const lookup = lookups();
      classifyHttpRequest(post(clientResponse(5), sessionHeader('s-7')), lookup);
      expect(lookup.asked).toEqual(['session:s-7|5']);
    });

    test('keeps its id', () => {
      expect(classifyHttpRequest(post(clientResponse('r-1')), lookups()).messages[0]?.id).toBe('r-1');
    });
  });

  describe('a 2025-03-26 batch', () => {
    const mixed = [legacyToolsList(1), cancelledNotification(), clientResponse(5)];
    classifyRows([
      {
        name: 'counts each element with the version of its session',
        facts: post(mixed, sessionHeader()),
        state: { sessions: { 's-1': '2025-03-26' }, serverRequests: { 'session:s-1|5': 'roots/list' } },
        expected: [
          legacy('request', 'tools/list', 'batch', '2025-03-26'),
          legacy('notification', 'notifications/cancelled', 'batch', '2025-03-26'),
          legacy('response', 'roots/list', 'batch', '2025-03-26'),
        ],
      },
      {
        name: 'takes the version from the header when there is no session',
        facts: post([legacyToolsList(1), legacyToolsList(2)], { 'mcp-protocol-version': '2025-06-18' }),
        expected: [legacy('request', 'tools/list', 'batch', '2025-06-18'), legacy('request', 'tools/list', 'batch', '2025-06-18')],
      },
      {
        name: 'assumes 2025-03-26 when nothing names a version',
        facts: post([legacyToolsList(1), cancelledNotification()]),
        expected: [legacy('request', 'tools/list', 'batch', '2025-03-26'), legacy('notification', 'notifications/cancelled', 'batch', '2025-03-26')],
      },
      {
        name: 'files initialize and notifications/initialized inside it under batch',
        facts: post([initializeRequest('2025-03-26'), initializedNotification()]),
        expected: [legacy('request', 'initialize', 'batch', '2025-03-26'), legacy('notification', 'notifications/initialized', 'batch', '2025-03-26')],
      },
      {
        name: 'counts an element that is not a JSON-RPC message as unknown, beside the others',
        facts: post([legacyToolsList(1), 42]),
        expected: [legacy('request', 'tools/list', 'batch', '2025-03-26'), unknown('invalid-message')],
      },
      {
        name: 'still files a modern element by its envelope',
        facts: post([modernToolsCall(), legacyToolsList(4)]),
        expected: [
          { kind: 'request', method: 'tools/call', era: 'modern', reason: 'modern-meta', version: MODERN, transport: 'streamable-http' },
          legacy('request', 'tools/list', 'batch', '2025-03-26'),
        ],
      },
      {
        name: 'that is empty is one unknown invalid message',
        facts: post([]),
        expected: [unknown('invalid-message')],
      },
    ]);
  });

  describe('GET and DELETE', () => {
    classifyRows([
      {
        name: 'a GET with a session is a legacy standalone stream with the session version',
        facts: streamRequest('GET', { ...sessionHeader(), accept: 'text/event-stream' }),
        state: { sessions: { 's-1': '2025-06-18' } },
        expected: [legacy('stream-open', 'GET', 'get-stream', '2025-06-18')],
      },
      {
        name: 'a GET with an unknown session takes the version header',
        facts: streamRequest('GET', { ...sessionHeader(), 'mcp-protocol-version': '2025-11-25' }),
        expected: [legacy('stream-open', 'GET', 'get-stream', '2025-11-25')],
      },
      {
        name: 'a GET with Last-Event-ID resumes a stream',
        facts: streamRequest('GET', { ...sessionHeader(), 'last-event-id': 'ev-4', accept: 'text/event-stream' }),
        state: { sessions: { 's-1': '2025-11-25' } },
        expected: [legacy('stream-open', 'GET', 'get-resume', '2025-11-25')],
      },
      {
        name: 'a GET with only Last-Event-ID is a resumption too',
        facts: streamRequest('GET', { 'last-event-id': 'ev-4' }),
        expected: [legacy('stream-open', 'GET', 'get-resume', '2025-03-26')],
      },
      {
        name: 'a GET that only asks for an event stream waits as a sessionless stream',
        facts: streamRequest('GET', { accept: 'text/event-stream' }, '/sse'),
        expected: [legacy('stream-open', 'GET', 'get-stream', '2025-03-26')],
      },
      {
        name: 'a GET without any MCP signal is not MCP and yields no message',
        facts: streamRequest('GET', { accept: 'text/html' }, '/favicon.ico'),
        expected: [],
      },
      {
        name: 'a GET to a known HTTP+SSE message endpoint is still not a channel message',
        facts: streamRequest('GET', { accept: 'text/event-stream' }, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: { key: CHANNEL_PATH, version: '2024-11-05' } } },
        expected: [legacy('stream-open', 'GET', 'get-stream', '2025-03-26')],
      },
      {
        name: 'a DELETE with a session ends that session',
        facts: streamRequest('DELETE', sessionHeader()),
        state: { sessions: { 's-1': '2025-06-18' } },
        expected: [legacy('session-delete', 'DELETE', 'delete-session', '2025-06-18')],
      },
      {
        name: 'a DELETE without any MCP signal is not MCP and yields no message',
        facts: streamRequest('DELETE'),
        expected: [],
      },
      // DELETE exists only in the legacy session mechanism: a client that sends one to an MCP
      // endpoint is a legacy client, session or not (the captured traces count it the same way).
      {
        name: 'a DELETE without a session but with a legacy version header is a legacy session delete',
        facts: streamRequest('DELETE', { 'mcp-protocol-version': '2025-06-18' }),
        expected: [legacy('session-delete', 'DELETE', 'delete-session', '2025-06-18')],
      },
      {
        name: 'a DELETE without a session that accepts an event stream is a legacy session delete at the assumed version',
        facts: streamRequest('DELETE', { accept: 'text/event-stream' }),
        expected: [legacy('session-delete', 'DELETE', 'delete-session', '2025-03-26')],
      },
      {
        name: 'another HTTP method is not MCP and yields no message',
        facts: streamRequest('PUT', sessionHeader()),
        expected: [],
      },
      {
        name: 'OAuth discovery under /.well-known/ is not MCP, even asking for an event stream',
        facts: streamRequest('GET', { accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' }, '/.well-known/oauth-protected-resource/mcp'),
        expected: [],
      },
    ]);
  });

  describe('a body past the classification cap', () => {
    classifyRows([
      {
        name: 'with no headers to go by is unknown',
        facts: oversizedPost(),
        expected: [unknown('body-too-large')],
      },
      {
        name: 'with a session is legacy at the session version',
        facts: oversizedPost(sessionHeader()),
        state: { sessions: { 's-1': '2025-06-18' } },
        expected: [{ ...unknown('body-too-large'), era: 'legacy', version: '2025-06-18' }],
      },
      {
        name: 'with a legacy version header is legacy at that version',
        facts: oversizedPost({ 'mcp-protocol-version': '2025-11-25' }),
        expected: [{ ...unknown('body-too-large'), era: 'legacy', version: '2025-11-25' }],
      },
      {
        name: 'with modern headers is modern, under the mirrored method',
        facts: oversizedPost(modernHeaders('tools/call', 'echo')),
        expected: [{ ...unknown('body-too-large', 'tools/call'), era: 'modern', version: MODERN }],
      },
      {
        name: 'with an unheard-of version header is a modern claim',
        facts: oversizedPost({ 'mcp-protocol-version': 'DRAFT-2026-v1' }),
        expected: [{ ...unknown('body-too-large'), era: 'modern', version: 'DRAFT-2026-v1' }],
      },
      {
        name: 'on an HTTP+SSE channel is legacy over http+sse at the channel version',
        facts: oversizedPost({}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: { key: CHANNEL_PATH, version: '2024-11-05' } } },
        expected: [{ ...unknown('body-too-large'), era: 'legacy', version: '2024-11-05', transport: 'http+sse' }],
      },
      {
        name: 'is decided by its headers even when part of the body was read',
        facts: { ...post(modernToolsCall()), bodyTooLarge: true },
        expected: [unknown('body-too-large')],
      },
    ]);
  });

  describe('a body that is not a JSON-RPC message', () => {
    classifyRows([
      { name: 'a non-JSON content type is unsupported', facts: post(legacyToolsList(), { 'content-type': 'text/plain' }), expected: [unknown('unsupported-content-type')] },
      { name: 'form data is unsupported', facts: post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }), expected: [unknown('unsupported-content-type')] },
      { name: 'invalid JSON', facts: post('{"jsonrpc":"2.0","id":1,'), expected: [unknown('invalid-json')] },
      { name: 'an empty body', facts: post(''), expected: [unknown('invalid-json')] },
      { name: 'JSON that is not an object', facts: post('42'), expected: [unknown('invalid-message')] },
      { name: 'a request with a null id', facts: post({ jsonrpc: '2.0', id: null, method: 'tools/list' }), expected: [unknown('invalid-message')] },
      { name: 'a response with both result and error', facts: post({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1 } }), expected: [unknown('invalid-message')] },
    ]);

    test.each(['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.mcp+json'])('content type %s is read as JSON', (contentType) => {
      const classification = classifyHttpRequest(post(legacyToolsList(), { 'content-type': contentType }), lookups());
      expect(classification.messages.map(summary)).toEqual([legacy('request', 'tools/list', 'assumed-2025-03-26', '2025-03-26')]);
    });

    test('a body without a content type is still read', () => {
      const facts = post(legacyToolsList());
      const classification = classifyHttpRequest({ ...facts, headers: {} }, lookups());
      expect(classification.messages[0]?.reason).toBe('assumed-2025-03-26');
    });
  });

  describe('a POST to an HTTP+SSE message endpoint', () => {
    const channel: HttpSseChannel = { key: CHANNEL_PATH, version: '2024-11-05' };
    classifyRows([
      {
        name: 'is an http+sse message with the version negotiated on its channel',
        facts: post(legacyToolsList(), {}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: channel } },
        expected: [legacy('request', 'tools/list', 'sse-message', '2024-11-05', 'http+sse')],
      },
      {
        name: 'before its channel negotiated a version has none',
        facts: post(legacyToolsList(), {}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: { key: CHANNEL_PATH, version: undefined } } },
        expected: [legacy('request', 'tools/list', 'sse-message', null, 'http+sse')],
      },
      {
        name: 'notifications/initialized on it takes the channel version',
        facts: post(initializedNotification(), {}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: channel } },
        expected: [legacy('notification', 'notifications/initialized', 'initialize', '2024-11-05', 'http+sse')],
      },
      {
        name: 'a notification on it is an http+sse message',
        facts: post(cancelledNotification(), {}, CHANNEL_PATH),
        state: { channels: { [CHANNEL_PATH]: channel } },
        expected: [legacy('notification', 'notifications/cancelled', 'sse-message', '2024-11-05', 'http+sse')],
      },
    ]);

    test('scopes its answers to the channel', () => {
      const classification = classifyHttpRequest(post(legacyToolsList(), {}, CHANNEL_PATH), lookups({ channels: { [CHANNEL_PATH]: channel } }));
      expect(classification.answersArriveOn).toBe(`sse:${CHANNEL_PATH}`);
    });

    test('known only by its path has no scope to wait in', () => {
      const classification = classifyHttpRequest(post(legacyToolsList(), {}, '/messages'), lookups({ channels: { '/messages': { key: undefined, version: undefined } } }));
      expect(classification.messages[0]?.transport).toBe('http+sse');
      expect(classification.answersArriveOn).toBeUndefined();
    });
  });

  describe('the era of a request without the modern envelope is never decided by ordering version strings', () => {
    test.each([
      { header: MODERN, era: 'modern', reason: 'modern-malformed' },
      { header: 'DRAFT-2026-v1', era: 'modern', reason: 'modern-malformed' },
      { header: '1900-01-01', era: 'modern', reason: 'modern-malformed' },
      { header: '9999-12-31', era: 'modern', reason: 'modern-malformed' },
      { header: '2025-06-18', era: 'legacy', reason: 'legacy-version-header' },
      { header: '2025-11-25', era: 'legacy', reason: 'legacy-version-header' },
      { header: '2025-03-26', era: 'legacy', reason: 'legacy-version-header' },
      { header: '2024-11-05', era: 'legacy', reason: 'legacy-version-header' },
      { header: 'DRAFT-2025-v2', era: 'legacy', reason: 'legacy-version-header' },
    ] as const)('MCP-Protocol-Version $header is $era ($reason)', ({ header, era, reason }) => {
      const classification = classifyHttpRequest(post(legacyToolsList(), { 'mcp-protocol-version': header }), lookups());
      expect(classification.messages.map(summary)).toEqual([{ kind: 'request', method: 'tools/list', era, reason, version: header, transport: 'streamable-http' }]);
      expect(classification.claimMismatch).toBe(false);
    });

    test('Mcp-Method alone claims nothing: without a version header the spec assumes 2025-03-26, as the dual-era SDK server does', () => {
      const classification = classifyHttpRequest(post(legacyToolsList(), { 'mcp-method': 'tools/list' }), lookups());
      expect(classification.messages.map(summary)).toEqual([{ kind: 'request', method: 'tools/list', era: 'legacy', reason: 'assumed-2025-03-26', version: '2025-03-26', transport: 'streamable-http' }]);
    });

    test('a modern header claim beside a session header is a session request', () => {
      const classification = classifyHttpRequest(post(legacyToolsList(), { ...sessionHeader(), 'mcp-protocol-version': '2025-06-18' }), lookups({ sessions: { 's-1': '2025-06-18' } }));
      expect(classification.messages.map(summary)).toEqual([legacy('request', 'tools/list', 'session-header', '2025-06-18')]);
    });
  });
});
