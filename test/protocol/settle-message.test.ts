import { describe, expect, test } from 'vitest';
import type { ClassifiedMessage } from '../../server/protocol/classified-message.js';
import { readJsonRpc, type JsonRpcMessage } from '../../server/protocol/read-json-rpc.js';
import { outcomeOfStatus, settleWithAnswer } from '../../server/protocol/settle-message.js';
import type { MessageKind, Outcome } from '../../server/protocol/vocabulary.js';

type Answer = Extract<JsonRpcMessage, { kind: 'response' }>;

function modernToolsCall(): ClassifiedMessage {
  return { kind: 'request', method: 'tools/call', id: 1, era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28' };
}

function legacySessionRequest(): ClassifiedMessage {
  return { kind: 'request', method: 'tools/call', id: 1, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' };
}

function initializeRequest(requested: string | null = '2025-11-25'): ClassifiedMessage {
  return { kind: 'request', method: 'initialize', id: 0, era: 'legacy', transport: 'streamable-http', reason: 'initialize', version: requested };
}

function unknownMessage(): ClassifiedMessage {
  return { kind: 'other', method: '(unparsed)', id: null, era: 'unknown', transport: 'streamable-http', reason: 'invalid-json', version: null };
}

function messageOfKind(kind: MessageKind): ClassifiedMessage {
  const method = kind === 'stream-open' ? 'GET' : kind === 'session-delete' ? 'DELETE' : kind === 'response' ? '(response)' : 'tools/list';
  return { kind, method, id: kind === 'request' ? 1 : null, era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' };
}

function answer(value: unknown): Answer {
  const rpc = readJsonRpc(value);
  if (rpc.kind !== 'response') throw new Error(`not a response: ${JSON.stringify(value)}`);
  return rpc;
}

function errorAnswer(code: number | undefined, id: number | null = 1): Answer {
  return answer({ jsonrpc: '2.0', id, error: code === undefined ? { message: 'no code' } : { code, message: 'failed' } });
}

function resultAnswer(result: unknown): Answer {
  return answer({ jsonrpc: '2.0', id: 1, result });
}

describe('settleWithAnswer', () => {
  describe('an error answer', () => {
    test.each([
      { code: -32022, status: 400, outcome: 'unsupported-version' },
      { code: -32022, status: undefined, outcome: 'unsupported-version' },
      { code: -32020, status: 400, outcome: 'header-mismatch' },
      { code: -32021, status: 400, outcome: 'missing-capability' },
      { code: -32601, status: 404, outcome: 'method-not-found' },
      { code: -32601, status: 200, outcome: 'method-not-found' },
      { code: -32602, status: 400, outcome: 'invalid-params' },
      { code: -32602, status: undefined, outcome: 'invalid-params' },
      { code: -32603, status: 500, outcome: 'server-error' },
      { code: -32603, status: 200, outcome: 'server-error' },
      { code: -32001, status: 404, outcome: 'session-gone' },
      { code: -32001, status: 400, outcome: 'client-error' },
      { code: -32001, status: 200, outcome: 'client-error' },
      { code: -32001, status: undefined, outcome: 'client-error' },
      { code: -32001, status: 500, outcome: 'server-error' },
      { code: -32700, status: 400, outcome: 'client-error' },
      { code: -32600, status: 400, outcome: 'client-error' },
      { code: -32000, status: 400, outcome: 'client-error' },
      { code: -32000, status: 503, outcome: 'server-error' },
      { code: -32002, status: 200, outcome: 'client-error' },
      // Release-candidate numbering: must not be read as the final codes.
      { code: -32004, status: 400, outcome: 'client-error' },
      { code: -32003, status: 400, outcome: 'client-error' },
      { code: undefined, status: 400, outcome: 'client-error' },
      { code: undefined, status: 502, outcome: 'server-error' },
      { code: undefined, status: undefined, outcome: 'client-error' },
    ] satisfies { code: number | undefined; status: number | undefined; outcome: Outcome }[])('code $code with status $status is $outcome', ({ code, status, outcome }) => {
      expect(settleWithAnswer(legacySessionRequest(), errorAnswer(code), status).outcome).toBe(outcome);
      expect(settleWithAnswer(modernToolsCall(), errorAnswer(code), status).outcome).toBe(outcome);
    });

    test('an error member that is not an object has no code', () => {
      expect(settleWithAnswer(legacySessionRequest(), answer({ jsonrpc: '2.0', id: 1, error: 'boom' }), 400).outcome).toBe('client-error');
    });

    test('leaves the message as it was classified', () => {
      const message = initializeRequest('2025-11-25');
      expect(settleWithAnswer(message, errorAnswer(-32602), 400)).toEqual({ message, outcome: 'invalid-params' });
    });
  });

  describe('a result', () => {
    const rows: { name: string; message: ClassifiedMessage; result: unknown; outcome: Outcome }[] = [
      { name: 'a modern request answered with resultType complete is served', message: modernToolsCall(), result: { resultType: 'complete', content: [] }, outcome: 'served' },
      { name: 'a modern request answered with input_required is served', message: modernToolsCall(), result: { resultType: 'input_required', requestState: 'x' }, outcome: 'served' },
      { name: 'a modern request answered without resultType was served as legacy', message: modernToolsCall(), result: { content: [] }, outcome: 'served-as-legacy' },
      { name: 'a modern request answered with a non-object result was served as legacy', message: modernToolsCall(), result: 'ok', outcome: 'served-as-legacy' },
      { name: 'a legacy request answered without resultType is served', message: legacySessionRequest(), result: { content: [] }, outcome: 'served' },
      { name: 'a legacy request answered with resultType is served', message: legacySessionRequest(), result: { resultType: 'complete' }, outcome: 'served' },
      { name: 'an unknown message answered with a result is served', message: unknownMessage(), result: {}, outcome: 'served' },
    ];
    for (const { name, message, result, outcome } of rows) {
      test(name, () => {
        expect(settleWithAnswer(message, resultAnswer(result), 200)).toEqual({ message, outcome });
      });
    }

    test('an initialize answer fixes the negotiated version, not the requested one', () => {
      const requested = initializeRequest('2025-11-25');
      const settled = settleWithAnswer(requested, resultAnswer({ protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }), 200);
      expect(settled).toEqual({ message: { ...requested, version: '2025-06-18' }, outcome: 'served' });
      expect(requested.version).toBe('2025-11-25');
    });

    test('an initialize answer negotiates a version even when none was requested', () => {
      expect(settleWithAnswer(initializeRequest(null), resultAnswer({ protocolVersion: '2024-11-05' }), undefined).message.version).toBe('2024-11-05');
    });

    test.each([{ protocolVersion: 20250618 }, {}, { protocolVersion: null }])('an initialize answer without a version string (%j) keeps the requested one', (result) => {
      const requested = initializeRequest('2025-03-26');
      expect(settleWithAnswer(requested, resultAnswer(result), 200)).toEqual({ message: requested, outcome: 'served' });
    });
  });
});

describe('outcomeOfStatus', () => {
  const kinds: MessageKind[] = ['request', 'notification', 'response', 'stream-open', 'session-delete', 'other'];

  test.each(kinds.flatMap((kind) => [500, 502, 503].map((status) => ({ kind, status }))))('a $kind answered $status is a server error', ({ kind, status }) => {
    expect(outcomeOfStatus(messageOfKind(kind), status)).toBe('server-error');
  });

  test.each(kinds.flatMap((kind) => [400, 401, 403, 404, 405, 406, 413, 415].map((status) => ({ kind, status }))))('a $kind answered $status is a client error', ({ kind, status }) => {
    expect(outcomeOfStatus(messageOfKind(kind), status)).toBe('client-error');
  });

  test.each(kinds.flatMap((kind) => [101, 301, 302, 304, 307].map((status) => ({ kind, status }))))('a $kind answered $status, outside 2xx, is a client error', ({ kind, status }) => {
    expect(outcomeOfStatus(messageOfKind(kind), status)).toBe('client-error');
  });

  test.each([
    { kind: 'request', status: 200, outcome: undefined },
    { kind: 'request', status: 202, outcome: undefined },
    { kind: 'notification', status: 202, outcome: 'accepted' },
    { kind: 'notification', status: 200, outcome: 'accepted' },
    { kind: 'response', status: 202, outcome: 'accepted' },
    { kind: 'response', status: 204, outcome: 'accepted' },
    { kind: 'stream-open', status: 200, outcome: 'served' },
    { kind: 'session-delete', status: 200, outcome: 'served' },
    { kind: 'session-delete', status: 204, outcome: 'served' },
    { kind: 'other', status: 200, outcome: 'served' },
  ] satisfies { kind: MessageKind; status: number; outcome: Outcome | undefined }[])('a $kind answered $status is $outcome', ({ kind, status, outcome }) => {
    expect(outcomeOfStatus(messageOfKind(kind), status)).toBe(outcome);
  });
});
