import { describe, expect, test } from 'vitest';
import { RequestCounts } from '../../server/otel/request-counts.js';
import { trafficCell } from '../store/temp-database.js';

describe('RequestCounts', () => {
  test('counts request cells only, cumulatively, in the conventions\' names, the caller only in the export\'s view', () => {
    const counts = new RequestCounts({ maxCallers: 10, maxSeries: 100 });
    counts.add([trafficCell({ count: 3 }), trafficCell({ kind: 'notification', method: 'notifications/initialized', count: 5 })]);
    counts.add([trafficCell({ count: 2 }), trafficCell({ transport: 'stdio', reason: 'initialize', method: 'initialize', version: '(none)', outcome: 'upstream-unreachable', integration: 'anonymous' })]);
    expect(counts.byCaller()).toEqual([
      {
        attributes: { 'mcp.method.name': 'tools/call', 'mcp.protocol.version': '2025-06-18', 'network.transport': 'tcp', 'network.protocol.name': 'http', 'mcp_sunset.era': 'legacy', 'mcp_sunset.transport': 'streamable-http', 'mcp_sunset.lifecycle_path': 'session-header', 'mcp_sunset.outcome': 'served', 'mcp_sunset.caller': 'tok_a' },
        value: 5,
      },
      {
        attributes: { 'mcp.method.name': 'initialize', 'network.transport': 'pipe', 'error.type': 'upstream-unreachable', 'mcp_sunset.era': 'legacy', 'mcp_sunset.transport': 'stdio', 'mcp_sunset.lifecycle_path': 'initialize', 'mcp_sunset.outcome': 'upstream-unreachable', 'mcp_sunset.caller': 'anonymous' },
        value: 1,
      },
    ]);
    expect(counts.withoutCallers().map((s) => [s.attributes['mcp_sunset.caller'], s.value])).toEqual([
      [undefined, 5],
      [undefined, 1],
    ]);
  });

  test('past the callers cap a caller is other; past the series cap counts go to one overflow series and are reported', () => {
    const counts = new RequestCounts({ maxCallers: 1, maxSeries: 2 });
    counts.add(['tok_a', 'tok_b', 'anonymous'].map((integration) => trafficCell({ integration })));
    expect(counts.byCaller().map((s) => s.attributes['mcp_sunset.caller'])).toEqual(['tok_a', 'other', undefined]);
    expect(counts.byCaller().at(-1)).toEqual({ attributes: { 'mcp_sunset.overflow': 'true' }, value: 1 });
    expect(counts.foldedRequests).toBe(1);
    // Every request counted once, in both views.
    const sum = (series: { value: number }[]) => series.reduce((total, s) => total + s.value, 0);
    expect(sum(counts.byCaller())).toBe(3);
    expect(sum(counts.withoutCallers())).toBe(3);
  });

  test('a method chosen to look like two label sets joined stays its own series', () => {
    const counts = new RequestCounts({ maxCallers: 10, maxSeries: 100 });
    counts.add([trafficCell({ method: 'a","b' }), trafficCell({ method: 'a', version: 'b' })]);
    expect(counts.byCaller().map((s) => [s.attributes['mcp.method.name'], s.value])).toEqual([
      ['a","b', 1],
      ['a', 1],
    ]);
  });

  test('refusals carry the plan and the cause beside the request attributes, with the caller only in the export\'s view', () => {
    const counts = new RequestCounts({ maxCallers: 10, maxSeries: 100 });
    const labels = { ...trafficCell({ outcome: 'blocked' }) };
    counts.addRefusals([{ labels, plan: 7, cause: 'block-new', count: 4 }, { labels: { ...labels, kind: 'notification' }, plan: 7, cause: 'block-new', count: 9 }]);
    expect(counts.refusalsByCaller()).toEqual([{ attributes: expect.objectContaining({ 'mcp_sunset.plan': '7', 'mcp_sunset.refusal': 'block-new', 'error.type': 'blocked', 'mcp_sunset.caller': 'tok_a' }), value: 4 }]);
    expect(counts.refusalsWithoutCallers()[0]!.attributes['mcp_sunset.caller']).toBeUndefined();
  });
});
