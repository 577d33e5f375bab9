import { describe, expect, test } from 'vitest';
import type { ClassifiedMessage } from '../../server/protocol/classified-message.js';
import { classifyStdioLine, type StdioProcessState } from '../../server/protocol/classify-stdio-line.js';
import type { JsonRpcId } from '../../server/protocol/read-json-rpc.js';

type Summary = Pick<ClassifiedMessage, 'kind' | 'method' | 'era' | 'reason' | 'version' | 'transport'>;

const MODERN = '2026-07-28';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

// ---- lines ------------------------------------------------------------------------------------

function line(...messages: unknown[]): string {
  return JSON.stringify(messages.length === 1 ? messages[0] : messages);
}

function batch(...messages: unknown[]): string {
  return JSON.stringify(messages);
}

function initializeRequest(requested = '2025-06-18', meta?: Record<string, unknown>) {
  return { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: requested, capabilities: {}, clientInfo: { name: 'c', version: '1' }, ...(meta ? { _meta: meta } : {}) } };
}

function legacyToolsCall(id: JsonRpcId = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } };
}

function modernToolsCall(id: JsonRpcId = 2) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: { [META_VERSION]: MODERN } } };
}

function pingRequest(id: JsonRpcId = 3) {
  return { jsonrpc: '2.0', id, method: 'ping' };
}

function initializedNotification() {
  return { jsonrpc: '2.0', method: 'notifications/initialized' };
}

function cancelledNotification() {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
}

function clientResponse(id: JsonRpcId | null = 'srv-1') {
  return { jsonrpc: '2.0', id, result: { roots: [] } };
}

// ---- process states ---------------------------------------------------------------------------

function preInit(serverRequests: Record<string, string> = {}): StdioProcessState {
  return { initializeSeen: false, negotiatedVersion: undefined, serverRequestMethod: (id) => serverRequests[String(id)] };
}

function afterInitialize(negotiated: string | null = '2025-06-18', serverRequests: Record<string, string> = {}): StdioProcessState {
  return { initializeSeen: true, negotiatedVersion: negotiated ?? undefined, serverRequestMethod: (id) => serverRequests[String(id)] };
}

function summary(message: ClassifiedMessage): Summary {
  const { kind, method, era, reason, version, transport } = message;
  return { kind, method, era, reason, version, transport };
}

function legacy(kind: Summary['kind'], method: string, reason: Summary['reason'], version: string | null): Summary {
  return { kind, method, era: 'legacy', reason, version, transport: 'stdio' };
}

function modern(method: string): Summary {
  return { kind: 'request', method, era: 'modern', reason: 'modern-meta', version: MODERN, transport: 'stdio' };
}

function unknown(reason: Summary['reason']): Summary {
  return { kind: 'other', method: '(unparsed)', era: 'unknown', reason, version: null, transport: 'stdio' };
}

interface Row {
  name: string;
  line: string;
  state: StdioProcessState;
  expected: Summary[];
}

function classifyRows(rows: Row[]) {
  for (const { name, line: text, state, expected } of rows) {
    test(name, () => {
      expect(classifyStdioLine(text, state).messages.map(summary)).toEqual(expected);
    });
  }
}

describe('classifyStdioLine', () => {
  describe('before initialize', () => {
    classifyRows([
      { name: 'a request without the envelope is pre-init legacy with no version', line: line(legacyToolsCall()), state: preInit(), expected: [legacy('request', 'tools/call', 'stdio-pre-init', null)] },
      { name: 'ping is pre-init legacy', line: line(pingRequest()), state: preInit(), expected: [legacy('request', 'ping', 'stdio-pre-init', null)] },
      { name: 'a notification is pre-init legacy', line: line(cancelledNotification()), state: preInit(), expected: [legacy('notification', 'notifications/cancelled', 'stdio-pre-init', null)] },
      { name: 'initialize opens the legacy handshake at the requested version', line: line(initializeRequest('2025-11-25')), state: preInit(), expected: [legacy('request', 'initialize', 'initialize', '2025-11-25')] },
      {
        name: 'initialize is legacy even with the modern envelope',
        line: line(initializeRequest('2025-11-25', { [META_VERSION]: MODERN })),
        state: preInit(),
        expected: [legacy('request', 'initialize', 'initialize', '2025-11-25')],
      },
      { name: 'a request with the envelope is modern', line: line(modernToolsCall()), state: preInit(), expected: [modern('tools/call')] },
    ]);
  });

  describe('after initialize', () => {
    classifyRows([
      { name: 'a request without the envelope is legacy at the negotiated version', line: line(legacyToolsCall()), state: afterInitialize('2025-06-18'), expected: [legacy('request', 'tools/call', 'stdio-process', '2025-06-18')] },
      { name: 'a request before the handshake was answered has no version yet', line: line(legacyToolsCall()), state: afterInitialize(null), expected: [legacy('request', 'tools/call', 'stdio-process', null)] },
      { name: 'notifications/initialized belongs to the handshake', line: line(initializedNotification()), state: afterInitialize('2025-03-26'), expected: [legacy('notification', 'notifications/initialized', 'initialize', '2025-03-26')] },
      { name: 'a notification is legacy for the process', line: line(cancelledNotification()), state: afterInitialize(), expected: [legacy('notification', 'notifications/cancelled', 'stdio-process', '2025-06-18')] },
      { name: 'a modern line stays modern: eras are decided per message', line: line(modernToolsCall()), state: afterInitialize('2025-06-18'), expected: [modern('tools/call')] },
      { name: 'a second initialize is still the handshake', line: line(initializeRequest('2025-03-26')), state: afterInitialize(), expected: [legacy('request', 'initialize', 'initialize', '2025-03-26')] },
    ]);
  });

  describe('a client response', () => {
    classifyRows([
      {
        name: 'is grouped under the server request it answers',
        line: line(clientResponse('srv-1')),
        state: afterInitialize('2025-06-18', { 'srv-1': 'roots/list' }),
        expected: [legacy('response', 'roots/list', 'client-response', '2025-06-18')],
      },
      { name: 'to an unknown server request is grouped under (response)', line: line(clientResponse('srv-2')), state: afterInitialize('2025-06-18', { 'srv-1': 'roots/list' }), expected: [legacy('response', '(response)', 'client-response', '2025-06-18')] },
      { name: 'with a null id is grouped under (response)', line: line({ jsonrpc: '2.0', id: null, error: { code: -32600 } }), state: afterInitialize(), expected: [legacy('response', '(response)', 'client-response', '2025-06-18')] },
      { name: 'before initialize has no version', line: line(clientResponse('srv-1')), state: preInit({ 'srv-1': 'ping' }), expected: [legacy('response', 'ping', 'client-response', null)] },
    ]);

    test('keeps its id', () => {
      expect(classifyStdioLine(line(clientResponse(9)), afterInitialize()).messages.map((m) => m.id)).toEqual([9]);
    });
  });

  describe('a 2025-03-26 batch', () => {
    classifyRows([
      {
        name: 'counts each element under batch at the negotiated version',
        line: batch(legacyToolsCall(1), pingRequest(2), cancelledNotification()),
        state: afterInitialize('2025-03-26'),
        expected: [legacy('request', 'tools/call', 'batch', '2025-03-26'), legacy('request', 'ping', 'batch', '2025-03-26'), legacy('notification', 'notifications/cancelled', 'batch', '2025-03-26')],
      },
      { name: 'files initialize inside it under batch', line: batch(initializeRequest('2025-03-26')), state: preInit(), expected: [legacy('request', 'initialize', 'batch', '2025-03-26')] },
      {
        name: 'files notifications/initialized inside it under batch',
        line: batch(initializedNotification(), legacyToolsCall(1)),
        state: afterInitialize('2025-03-26'),
        expected: [legacy('notification', 'notifications/initialized', 'batch', '2025-03-26'), legacy('request', 'tools/call', 'batch', '2025-03-26')],
      },
      {
        name: 'files a client response inside it under batch',
        line: batch(clientResponse('srv-1'), legacyToolsCall(1)),
        state: afterInitialize('2025-03-26', { 'srv-1': 'roots/list' }),
        expected: [legacy('response', 'roots/list', 'batch', '2025-03-26'), legacy('request', 'tools/call', 'batch', '2025-03-26')],
      },
      { name: 'still files a modern element by its envelope', line: batch(modernToolsCall(), legacyToolsCall(1)), state: afterInitialize('2025-03-26'), expected: [modern('tools/call'), legacy('request', 'tools/call', 'batch', '2025-03-26')] },
      { name: 'counts a non-message element as unknown beside the others', line: batch(legacyToolsCall(1), 'x'), state: afterInitialize('2025-03-26'), expected: [legacy('request', 'tools/call', 'batch', '2025-03-26'), unknown('invalid-message')] },
      { name: 'that is empty is one unknown invalid message', line: '[]', state: afterInitialize(), expected: [unknown('invalid-message')] },
    ]);
  });

  describe('a line that is not a JSON-RPC message', () => {
    classifyRows([
      { name: 'invalid JSON', line: '{"jsonrpc":"2.0",', state: afterInitialize(), expected: [unknown('invalid-json')] },
      { name: 'a log line written to stdin by mistake', line: 'starting server...', state: preInit(), expected: [unknown('invalid-json')] },
      { name: 'JSON that is not an object', line: '"hello"', state: preInit(), expected: [unknown('invalid-message')] },
      { name: 'a request with a boolean id', line: line({ jsonrpc: '2.0', id: true, method: 'ping' }), state: preInit(), expected: [unknown('invalid-message')] },
    ]);
  });

  describe('the requests a line cancels', () => {
    const cancel = (requestId: unknown) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'gave up' } });
    test.each([
      { name: 'a cancellation names its request', text: line(cancel(7)), cancels: [7] },
      { name: 'a string id is kept as a string', text: line(cancel('7')), cancels: ['7'] },
      { name: 'each cancellation in a batch counts', text: batch(cancel(1), legacyToolsCall(2), cancel('b')), cancels: [1, 'b'] },
      { name: 'a cancellation without a usable id cancels nothing', text: line(cancel(null)), cancels: [] },
      { name: 'other messages cancel nothing', text: line(legacyToolsCall(7)), cancels: [] },
      { name: 'a line that is not JSON cancels nothing', text: '{"method":"notifications/cancelled"', cancels: [] },
    ])('$name', ({ text, cancels }) => {
      expect(classifyStdioLine(text, afterInitialize()).cancels).toEqual(cancels);
    });
  });
});
