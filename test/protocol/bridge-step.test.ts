import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bridgeStep } from '../../server/protocol/bridge-step.js';
import { INVALID_PARAMS, INVALID_REQUEST } from '../../server/protocol/error-codes.js';
import { legacyResultOf } from '../../server/protocol/legacy-result-of.js';
import { META_SERVER_INFO } from '../../server/protocol/versions.js';

const request = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });

describe('bridgeStep', () => {
  it('answers the handshake from discovery, the removed utilities at the edge, and forwards the rest', () => {
    expect(bridgeStep(request('initialize', { protocolVersion: '2025-06-18' }))).toEqual({ kind: 'initialize', id: 7, params: { protocolVersion: '2025-06-18' } });
    expect(bridgeStep(request('ping'))).toEqual({ kind: 'answer', id: 7, result: {} });
    expect(bridgeStep(request('logging/setLevel', { level: 'info' }))).toEqual({ kind: 'answer', id: 7, result: {} });
    expect(bridgeStep(request('tools/call', { name: 'x' }))).toEqual({ kind: 'forward', id: 7, method: 'tools/call', params: { name: 'x' } });
    expect(bridgeStep({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ kind: 'accept' });
  });

  it('refuses what it cannot map with a JSON-RPC error, keeping the id when there is one', () => {
    expect(bridgeStep([request('ping')])).toMatchObject({ kind: 'refuse', id: null, code: INVALID_REQUEST });
    expect(bridgeStep({ jsonrpc: '2.0', id: 3 })).toMatchObject({ kind: 'refuse', id: 3, code: INVALID_REQUEST });
    expect(bridgeStep({ jsonrpc: '2.0', id: { no: 1 }, method: 'ping' })).toMatchObject({ kind: 'refuse', id: null });
    expect(bridgeStep({ id: 1, method: 'ping' })).toMatchObject({ kind: 'refuse' });
  });

  it("hands the client's answers to the bridge, results and errors alike", () => {
    expect(bridgeStep({ jsonrpc: '2.0', id: 3, result: { action: 'accept' } })).toEqual({ kind: 'response', id: 3, result: { action: 'accept' }, error: undefined });
    expect(bridgeStep({ jsonrpc: '2.0', id: 'b', error: { code: -1, message: 'no' } })).toEqual({ kind: 'response', id: 'b', result: undefined, error: { code: -1, message: 'no' } });
  });

  it('takes resource subscriptions at the edge, and refuses one without a uri', () => {
    expect(bridgeStep(request('resources/subscribe', { uri: 'demo://about' }))).toEqual({ kind: 'subscribe', id: 7, uri: 'demo://about', subscribe: true });
    expect(bridgeStep(request('resources/unsubscribe', { uri: 'demo://about' }))).toEqual({ kind: 'subscribe', id: 7, uri: 'demo://about', subscribe: false });
    expect(bridgeStep(request('resources/subscribe', {}))).toMatchObject({ kind: 'refuse', id: 7, code: INVALID_PARAMS });
  });

  it('never throws, whatever the body', () => {
    fc.assert(fc.property(fc.jsonValue(), (body) => void bridgeStep(body)));
  });
});

describe('legacyResultOf', () => {
  it('drops resultType and the per-result serverInfo, keeping everything else', () => {
    const modern = { content: [{ type: 'text', text: 'ok' }], resultType: 'complete', _meta: { [META_SERVER_INFO]: { name: 's', version: '1' }, trace: 'x' } };
    expect(legacyResultOf(modern)).toEqual({ content: [{ type: 'text', text: 'ok' }], _meta: { trace: 'x' } });
    expect(legacyResultOf({ tools: [], _meta: { [META_SERVER_INFO]: { name: 's', version: '1' } } })).toEqual({ tools: [] });
    expect(legacyResultOf({ tools: [] })).toEqual({ tools: [] });
  });

  it('answers nothing for a result that asks the client for input, nor for a non-object', () => {
    expect(legacyResultOf({ resultType: 'input_required', inputRequests: {} })).toBeUndefined();
    expect(legacyResultOf(null)).toBeUndefined();
    expect(legacyResultOf([1])).toBeUndefined();
  });
});

describe('bridgeStep: cancellation', () => {
  it('names the request a cancel notification is about, and accepts one that names none', () => {
    expect(bridgeStep({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4, reason: 'user' } })).toEqual({ kind: 'cancel', requestId: 4 });
    expect(bridgeStep({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} })).toEqual({ kind: 'accept' });
  });
});
