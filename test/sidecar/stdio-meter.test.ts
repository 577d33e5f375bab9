import { describe, expect, test } from 'vitest';
import type { JsonRpcId } from '../../server/protocol/read-json-rpc.js';
import type { Observation } from '../../server/sidecar/observation.js';
import { StdioMeter, type StdioMeterOptions } from '../../server/sidecar/stdio-meter.js';
import { Tally } from '../../server/tally/tally.js';
import { NO_VERSION } from '../../server/tally/tally-cell.js';
import { tallyEntryOf } from '../../server/tally/tally-entry-of.js';

const MODERN = '2026-07-28';
const MB = 1024 * 1024;

function harness(options?: StdioMeterOptions) {
  const recorded: Observation<string>[] = [];
  const meter = new StdioMeter<string>((observation) => recorded.push(observation), options);
  return { meter, recorded };
}

/** A string id of about 1 MB, distinct per `n` in its first characters and its last. */
const hugeId = (n: number) => `${n}-${'x'.repeat(MB)}-${n}`;

function counted(recorded: Observation<string>[]) {
  return recorded.map((o) => [o.message.method, o.message.id, o.message.reason, o.message.version, o.outcome]);
}

const line = (value: unknown) => JSON.stringify(value);
const request = (id: JsonRpcId, method: string, params: Record<string, unknown> = {}) => line({ jsonrpc: '2.0', id, method, params });
const initializeRequest = (requested = '2025-11-25') => request(0, 'initialize', { protocolVersion: requested, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
const modernRequest = (id: JsonRpcId) => request(id, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
const result = (id: JsonRpcId, value: Record<string, unknown> = {}) => line({ jsonrpc: '2.0', id, result: value });
const cancelled = (requestId: JsonRpcId) => line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'gave up' } });

describe('StdioMeter', () => {
  test('times each request from the line written to its answer on its clock, and marks a refused line with its plan and cause', () => {
    let now = 1_000;
    const { meter, recorded } = harness({ clock: () => now });
    meter.clientLine(initializeRequest(), 'c');
    now += 250;
    meter.serverLine(result(0, { protocolVersion: '2025-11-25' }));
    meter.clientLine(line({ jsonrpc: '2.0', method: 'notifications/initialized' }), 'c');
    meter.clientLine(request(1, 'tools/list'), 'c');
    now += 40;
    meter.clientLine(cancelled(1), 'c');
    meter.clientLineRefused(meter.classifyClientLine(request(2, 'tools/call')), 'c', { plan: 7, cause: 'cut' });
    expect(recorded.map((o) => [o.message.method, o.outcome, o.seconds, o.refusal])).toEqual([
      ['initialize', 'served', 0.25, undefined],
      ['notifications/initialized', 'no-response', undefined, undefined],
      ['notifications/cancelled', 'no-response', undefined, undefined],
      ['tools/list', 'cancelled', 0.04, undefined],
      ['tools/call', 'blocked', undefined, { plan: 7, cause: 'cut' }],
    ]);
  });

  test('records a request when its answer comes back, with the version the handshake negotiated', () => {
    const { meter, recorded } = harness();
    meter.clientLine(initializeRequest('2025-11-25'), 'c');
    meter.serverLine(result(0, { protocolVersion: '2025-06-18' }));
    meter.clientLine(line({ jsonrpc: '2.0', method: 'notifications/initialized' }), 'c');
    meter.clientLine(request(1, 'tools/list'), 'c');
    expect(recorded).toHaveLength(2);
    meter.serverLine(result(1, { tools: [] }));
    expect(counted(recorded)).toEqual([
      ['initialize', 0, 'initialize', '2025-06-18', 'served'],
      ['notifications/initialized', null, 'initialize', '2025-06-18', 'no-response'],
      ['tools/list', 1, 'stdio-process', '2025-06-18', 'served'],
    ]);
  });

  test('a modern line after initialize is still modern, and served-as-legacy without resultType', () => {
    const { meter, recorded } = harness();
    meter.clientLine(initializeRequest(), 'c');
    meter.serverLine(result(0, { protocolVersion: '2025-11-25' }));
    meter.clientLine(modernRequest(2), 'c');
    meter.clientLine(modernRequest(3), 'c');
    meter.serverLine(result(2, { resultType: 'complete', tools: [] }));
    meter.serverLine(result(3, { tools: [] }));
    expect(counted(recorded).slice(1)).toEqual([
      ['tools/list', 2, 'modern-meta', MODERN, 'served'],
      ['tools/list', 3, 'modern-meta', MODERN, 'served-as-legacy'],
    ]);
  });

  test('groups a client answer under the server request it answers', () => {
    const { meter, recorded } = harness();
    meter.serverLine(request('srv-1', 'roots/list'));
    meter.clientLine(result('srv-1', { roots: [] }), 'c');
    expect(counted(recorded)).toEqual([['roots/list', 'srv-1', 'client-response', null, 'no-response']]);
  });

  test('ignores server lines that are not JSON and answers nobody asked for', () => {
    const { meter, recorded } = harness();
    meter.serverLine('server starting...');
    meter.serverLine(result(99));
    meter.clientLine('   ', 'c');
    expect(recorded).toEqual([]);
  });

  test('settles a batch of answers element by element', () => {
    const { meter, recorded } = harness();
    meter.clientLine(line([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]), 'c');
    meter.serverLine(line([{ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no' } }, { jsonrpc: '2.0', id: 1, result: {} }]));
    expect(counted(recorded)).toEqual([
      ['tools/list', 2, 'batch', null, 'method-not-found'],
      ['ping', 1, 'batch', null, 'served'],
    ]);
  });

  test('close records what the process never answered as no-response, once', () => {
    const { meter, recorded } = harness();
    meter.clientLine(request(1, 'tools/call'), 'c');
    meter.clientLine(request('a', 'tools/list'), 'c');
    meter.close();
    meter.close();
    meter.serverLine(result(1));
    expect(counted(recorded).sort()).toEqual([
      ['tools/call', 1, 'stdio-pre-init', null, 'no-response'],
      ['tools/list', 'a', 'stdio-pre-init', null, 'no-response'],
    ]);
  });

  test('a request the client cancels is counted as cancelled at once, and its late answer is not counted again', () => {
    const { meter, recorded } = harness();
    meter.clientLine(initializeRequest(), 'c');
    meter.serverLine(result(0, { protocolVersion: '2025-11-25' }));
    meter.clientLine(request(1, 'tools/call'), 'c');
    meter.clientLine(request(2, 'tools/list'), 'c');
    meter.clientLine(cancelled(1), 'c');
    expect(counted(recorded).slice(1)).toEqual([
      ['notifications/cancelled', null, 'stdio-process', '2025-11-25', 'no-response'],
      ['tools/call', 1, 'stdio-process', '2025-11-25', 'cancelled'],
    ]);
    meter.serverLine(result(1));
    meter.serverLine(result(2));
    meter.close();
    expect(counted(recorded).slice(3)).toEqual([['tools/list', 2, 'stdio-process', '2025-11-25', 'served']]);
  });

  test('at close, a cancelled request stays cancelled and the others still open get no-response', () => {
    const { meter, recorded } = harness();
    meter.clientLine(request(1, 'tools/call'), 'c');
    meter.clientLine(request(2, 'tools/call'), 'c');
    meter.clientLine(cancelled(2), 'c');
    meter.close();
    expect(counted(recorded).filter(([method]) => method === 'tools/call')).toEqual([
      ['tools/call', 2, 'stdio-pre-init', null, 'cancelled'],
      ['tools/call', 1, 'stdio-pre-init', null, 'no-response'],
    ]);
  });

  test('a cancellation matches ids by type, and one naming no open request settles nothing', () => {
    const { meter, recorded } = harness();
    meter.clientLine(request(1, 'tools/call'), 'c');
    meter.clientLine(cancelled('1'), 'c');
    meter.clientLine(cancelled(99), 'c');
    meter.serverLine(result(1));
    expect(recorded.map((o) => [o.message.method, o.outcome])).toEqual([
      ['notifications/cancelled', 'no-response'],
      ['notifications/cancelled', 'no-response'],
      ['tools/call', 'served'],
    ]);
  });

  test('a modern request cancelled on stdio is counted as cancelled in its own era', () => {
    const { meter, recorded } = harness();
    meter.clientLine(modernRequest(5), 'c');
    meter.clientLine(cancelled(5), 'c');
    expect(recorded.filter((o) => o.message.kind === 'request').map((o) => [o.message.era, o.message.version, o.outcome])).toEqual([['modern', MODERN, 'cancelled']]);
  });

  test('a cancellation of initialize is ignored: the answer still settles it and sets the version', () => {
    const { meter, recorded } = harness();
    meter.clientLine(initializeRequest(), 'c');
    meter.clientLine(cancelled(0), 'c');
    meter.serverLine(result(0, { protocolVersion: '2025-06-18' }));
    meter.clientLine(request(1, 'tools/list'), 'c');
    meter.serverLine(result(1));
    expect(counted(recorded).filter(([, id]) => id !== null)).toEqual([
      ['initialize', 0, 'initialize', '2025-06-18', 'served'],
      ['tools/list', 1, 'stdio-process', '2025-06-18', 'served'],
    ]);
  });

  test('ids are told apart by type: 1 and "1" are different requests', () => {
    const { meter, recorded } = harness();
    meter.clientLine(request(1, 'ping'), 'number');
    meter.clientLine(request('1', 'ping'), 'string');
    meter.serverLine(result('1'));
    expect(recorded.map((o) => [o.attrs, o.outcome])).toEqual([['string', 'served']]);
  });

  test('two open requests that reuse one id are both counted', () => {
    const { meter, recorded } = harness();
    meter.clientLine(request(1, 'tools/call'), 'first');
    meter.clientLine(request(1, 'tools/call'), 'second');
    meter.serverLine(result(1));
    meter.close();
    expect(recorded.map((o) => o.attrs).sort()).toEqual(['first', 'second']);
  });

  describe('bounded in bytes', () => {
    const budget = 64 * 1024;

    test('a request with a 1 MB string id is held as a few hundred bytes, and its answer still settles it', () => {
      const { meter, recorded } = harness({ maxOpenBytes: budget });
      const id = hugeId(1);
      meter.clientLine(request(id, 'tools/call'), 'c');
      expect(meter.heldBytes).toBeGreaterThan(0);
      expect(meter.heldBytes).toBeLessThan(2048);
      meter.serverLine(result(id));
      expect(recorded.map((o) => [o.message.method, o.outcome])).toEqual([['tools/call', 'served']]);
      expect(String(recorded[0]!.message.id).length).toBeLessThanOrEqual(256);
      expect(meter.heldBytes).toBe(0);
      expect(meter.memory().evictedForBytes).toBe(0);
    });

    test('a cancellation naming a 1 MB id settles the request it names, and only that one', () => {
      const { meter, recorded } = harness({ maxOpenBytes: budget });
      meter.clientLine(request(hugeId(1), 'tools/call'), 'first');
      meter.clientLine(request(hugeId(2), 'tools/call'), 'second');
      meter.clientLine(cancelled(hugeId(2)), 'c');
      meter.serverLine(result(hugeId(1)));
      expect(recorded.filter((o) => o.message.method === 'tools/call').map((o) => [o.attrs, o.outcome])).toEqual([
        ['second', 'cancelled'],
        ['first', 'served'],
      ]);
    });

    test('a server request with a 1 MB id still groups the client answer under its method', () => {
      const { meter, recorded } = harness({ maxOpenBytes: budget });
      meter.serverLine(request(hugeId(7), 'roots/list'));
      expect(meter.heldBytes).toBeLessThan(2048);
      meter.clientLine(result(hugeId(7), { roots: [] }), 'c');
      expect(recorded.map((o) => [o.message.method, o.message.reason])).toEqual([['roots/list', 'client-response']]);
    });

    test('many pending requests with huge ids under a small budget: the budget pushes some out, each counted once as no-response', () => {
      const small = 16 * 1024;
      const { meter, recorded } = harness({ maxOpenBytes: small });
      const sent = 60;
      for (let n = 0; n < sent; n += 1) {
        meter.clientLine(request(hugeId(n), `tools/call-${'m'.repeat(64 * 1024)}-${n}`), 'c');
        expect(meter.heldBytes).toBeLessThanOrEqual(small);
      }
      const { evictedForBytes, budgetBytes } = meter.memory();
      expect(budgetBytes).toBe(2 * small);
      expect(evictedForBytes).toBeGreaterThan(0);
      const settledEarly = recorded.filter((o) => o.message.kind === 'request');
      expect(settledEarly).toHaveLength(evictedForBytes);
      expect(settledEarly.every((o) => o.outcome === 'no-response')).toBe(true);
      // The oldest went first, and what is still held can still be answered.
      meter.serverLine(result(hugeId(sent - 1)));
      expect(recorded.at(-1)!.outcome).toBe('served');
      meter.close();
      expect(recorded.filter((o) => o.message.kind === 'request')).toHaveLength(sent);
    });

    test('long methods and versions are held cut short, and are still counted as other', () => {
      const { meter, recorded } = harness({ maxOpenBytes: budget });
      const longMethod = 'm'.repeat(MB);
      const longVersion = 'v'.repeat(MB);
      meter.clientLine(request(0, 'initialize', { protocolVersion: longVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } }), 'c');
      meter.clientLine(request(1, longMethod), 'c');
      meter.serverLine(request(2, longMethod));
      expect(meter.heldBytes).toBeLessThan(4096);
      meter.clientLine(result(2), 'c');
      meter.close();
      const tally = new Tally({ node: 'n', now: () => 0 });
      for (const observation of recorded) tally.add(tallyEntryOf({ ...observation, attrs: { integration: 'i', source: 'test' } }));
      const cells = tally.drain().cells.map((cell) => [cell.kind, cell.method, cell.version]);
      expect(cells.sort()).toEqual([
        ['request', 'initialize', 'other'],
        ['request', 'other', NO_VERSION],
        ['response', 'other', NO_VERSION],
      ]);
    });
  });

  test('a refused line is counted blocked, message by message, and leaves the process as it was: a refused initialize does not make it legacy', () => {
    const { meter, recorded } = harness();
    meter.clientLineRefused(meter.classifyClientLine(initializeRequest()), 'c');
    meter.clientLineRefused(meter.classifyClientLine(line([JSON.parse(request(1, 'tools/list')), { jsonrpc: '2.0', method: 'notifications/progress', params: {} }])), 'c');
    meter.clientLine(request(2, 'tools/list'), 'c');
    meter.serverLine(result(0, { protocolVersion: '2025-11-25' }));
    meter.serverLine(result(2, { tools: [] }));
    expect(counted(recorded)).toEqual([
      ['initialize', 0, 'initialize', '2025-11-25', 'blocked'],
      ['tools/list', 1, 'batch', null, 'blocked'],
      ['notifications/progress', null, 'batch', null, 'blocked'],
      // Still before any initialize the server saw, and the answer to the refused one settles nothing.
      ['tools/list', 2, 'stdio-pre-init', null, 'served'],
    ]);
  });
});
