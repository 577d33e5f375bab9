import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bridgedStdioClassification } from '../../server/protocol/bridged-stdio-classification.js';
import { classifyStdioLine, type StdioProcessState } from '../../server/protocol/classify-stdio-line.js';
import { FIRST_MODERN_VERSION, META_PROTOCOL_VERSION } from '../../server/protocol/versions.js';

const PRE_INIT: StdioProcessState = { initializeSeen: false, negotiatedVersion: undefined, serverRequestMethod: () => undefined };
const NEGOTIATED: StdioProcessState = { initializeSeen: true, negotiatedVersion: '2025-06-18', serverRequestMethod: (id) => (id === 'ask-1' ? 'elicitation/create' : undefined) };

const line = (message: unknown) => JSON.stringify(message);
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const legacyCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } };
const modernCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', _meta: { [META_PROTOCOL_VERSION]: FIRST_MODERN_VERSION } } };

const relabel = (text: string, state: StdioProcessState, negotiated: string | null) => bridgedStdioClassification(classifyStdioLine(text, state), negotiated);
const labels = (text: string, state: StdioProcessState, negotiated: string | null) =>
  relabel(text, state, negotiated)?.messages.map(({ method, era, reason, version }) => [method, era, reason, version]);

describe('bridgedStdioClassification', () => {
  test('files every message of a legacy line as legacy under reason bridge, at the negotiated version', () => {
    expect(labels(line(legacyCall), NEGOTIATED, '2025-06-18')).toEqual([['tools/call', 'legacy', 'bridge', '2025-06-18']]);
    expect(labels(line({ jsonrpc: '2.0', method: 'notifications/initialized' }), NEGOTIATED, '2025-06-18')).toEqual([['notifications/initialized', 'legacy', 'bridge', '2025-06-18']]);
    // The client's answer to an input request the bridge sent is grouped under that request's method.
    expect(labels(line({ jsonrpc: '2.0', id: 'ask-1', result: { action: 'accept' } }), NEGOTIATED, '2025-06-18')).toEqual([['elicitation/create', 'legacy', 'bridge', '2025-06-18']]);
  });

  test('an initialize keeps the version it asked for until its answer fixes the negotiated one', () => {
    expect(labels(line(initialize), PRE_INIT, null)).toEqual([['initialize', 'legacy', 'bridge', '2025-11-25']]);
  });

  test('keeps the cancels of the line, so the meter settles the request they name', () => {
    const cancel = line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(relabel(cancel, NEGOTIATED, '2025-06-18')?.cancels).toEqual([1]);
  });

  test('is not the bridge\'s when every message of the line is modern or unreadable', () => {
    expect(relabel(line(modernCall), NEGOTIATED, '2025-06-18')).toBeUndefined();
    expect(relabel('{not json', PRE_INIT, null)).toBeUndefined();
    expect(relabel(line({ no: 'rpc' }), PRE_INIT, null)).toBeUndefined();
  });

  test('a batch holding any legacy message is the bridge\'s whole, its modern request included', () => {
    expect(labels(JSON.stringify([modernCall, legacyCall]), NEGOTIATED, '2025-06-18')).toEqual([
      ['tools/call', 'legacy', 'bridge', '2025-06-18'],
      ['tools/call', 'legacy', 'bridge', '2025-06-18'],
    ]);
  });

  test('never throws, and a bridged line is always all legacy and all bridge', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.string(), { nil: null }), (value, negotiated) => {
        const bridged = relabel(JSON.stringify(value), NEGOTIATED, negotiated);
        if (bridged === undefined) return;
        for (const message of bridged.messages) {
          expect(message.era).toBe('legacy');
          expect(message.reason).toBe('bridge');
        }
      }),
    );
  });
});
