import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import type { TrafficQuery } from '../../server/store/records/traffic-series.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

const NOON = Date.UTC(2026, 10, 30, 12, 0);
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const iso = (at: number) => new Date(at).toISOString();

function query(overrides: Partial<TrafficQuery> = {}): TrafficQuery {
  return { from: NOON, to: NOON + 5 * MINUTE, bucket: 'minute', groupBy: 'era', filters: {}, ...overrides };
}

describe('listTraffic', () => {
  let db: TempDatabase;

  beforeEach(() => {
    db = openTempDatabase();
    createTallyWriter(db.store.db)({
      cells: [
        trafficCell({ minute: NOON, era: 'legacy', method: 'tools/call', count: 3, mismatchCount: 0, wouldBlockCount: 2 }),
        trafficCell({ minute: NOON, era: 'modern', reason: 'modern-meta', version: '2026-07-28', method: 'tools/call', count: 5, mismatchCount: 2 }),
        trafficCell({ minute: NOON + 2 * MINUTE, era: 'legacy', transport: 'http+sse', reason: 'sse-message', method: 'tools/call2', count: 7 }),
        trafficCell({ minute: NOON + 2 * MINUTE, era: 'unknown', reason: 'invalid-json', method: '(unparsed)', integration: 'anonymous', node: 'node-2', count: 1 }),
        // Outside the default range: just before and exactly at `to`.
        trafficCell({ minute: NOON - MINUTE, count: 100 }),
        trafficCell({ minute: NOON + 5 * MINUTE, count: 1_000 }),
      ],
      integrations: [],
    });
  });
  afterEach(() => db.dispose());

  test('answers every bucket of the range, zero-filled, in time order', () => {
    expect(listTraffic(db.store.db, query())).toEqual({
      bucket: 'minute',
      groupBy: 'era',
      from: iso(NOON),
      to: iso(NOON + 5 * MINUTE),
      series: [
        { start: iso(NOON), counts: { legacy: 3, modern: 5 } },
        { start: iso(NOON + MINUTE), counts: {} },
        { start: iso(NOON + 2 * MINUTE), counts: { legacy: 7, unknown: 1 } },
        { start: iso(NOON + 3 * MINUTE), counts: {} },
        { start: iso(NOON + 4 * MINUTE), counts: {} },
      ],
      totals: { legacy: 10, modern: 5, unknown: 1 },
      claimMismatches: 2,
      wouldBlock: 2,
    });
  });

  test('starts at the bucket that contains from and includes the partial last bucket', () => {
    const result = listTraffic(db.store.db, query({ from: NOON + 30_000, to: NOON + 2 * MINUTE + 1 }));
    expect(result.from).toBe(iso(NOON));
    expect(result.series.map((s) => s.start)).toEqual([iso(NOON), iso(NOON + MINUTE), iso(NOON + 2 * MINUTE)]);
    expect(result.totals).toEqual({ legacy: 10, modern: 5, unknown: 1 });
  });

  test('an empty range answers no buckets and no totals', () => {
    expect(listTraffic(db.store.db, query({ from: NOON, to: NOON }))).toMatchObject({ series: [], totals: {}, claimMismatches: 0, wouldBlock: 0 });
  });

  test.each([
    { filters: { era: 'legacy' }, totals: { 'tools/call': 3, 'tools/call2': 7 } },
    { filters: { method: 'tools/call' }, totals: { 'tools/call': 8 } },
    { filters: { method: 'tools/cal' }, totals: {} },
    { filters: { era: 'Legacy' }, totals: {} },
    { filters: { era: 'legacy', transport: 'http+sse' }, totals: { 'tools/call2': 7 } },
    { filters: { era: 'legacy', transport: 'stdio' }, totals: {} },
    { filters: { node: 'node-2' }, totals: { '(unparsed)': 1 } },
    { filters: { integration: 'anonymous' }, totals: { '(unparsed)': 1 } },
    { filters: { version: '2026-07-28', outcome: 'served', reason: 'modern-meta' }, totals: { 'tools/call': 5 } },
  ])('filters exactly by $filters', ({ filters, totals }) => {
    expect(listTraffic(db.store.db, query({ groupBy: 'method', filters })).totals).toEqual(totals);
  });

  test('counts claim mismatches within the same filters', () => {
    expect(listTraffic(db.store.db, query({ filters: { era: 'legacy' } })).claimMismatches).toBe(0);
    expect(listTraffic(db.store.db, query({ filters: { era: 'modern' } })).claimMismatches).toBe(2);
  });

  test('counts would-block requests within the same filters', () => {
    createTallyWriter(db.store.db)({ cells: [trafficCell({ minute: NOON + MINUTE, era: 'legacy', transport: 'http+sse', reason: 'sse-message', count: 4, wouldBlockCount: 3 })], integrations: [] });
    expect(listTraffic(db.store.db, query()).wouldBlock).toBe(5);
    expect(listTraffic(db.store.db, query({ filters: { transport: 'http+sse' } })).wouldBlock).toBe(3);
    expect(listTraffic(db.store.db, query({ filters: { era: 'modern' } })).wouldBlock).toBe(0);
  });

  test.each([
    { groupBy: 'transport', totals: { 'streamable-http': 9, 'http+sse': 7 } },
    { groupBy: 'reason', totals: { 'session-header': 3, 'modern-meta': 5, 'sse-message': 7, 'invalid-json': 1 } },
    { groupBy: 'version', totals: { '2025-06-18': 11, '2026-07-28': 5 } },
    { groupBy: 'integration', totals: { tok_a: 15, anonymous: 1 } },
    { groupBy: 'node', totals: { 'node-1': 15, 'node-2': 1 } },
    { groupBy: 'outcome', totals: { served: 16 } },
  ] as const)('groups by $groupBy', ({ groupBy, totals }) => {
    expect(listTraffic(db.store.db, query({ groupBy })).totals).toEqual(totals);
  });

  test('reads hour and day buckets from the rolled-up tables', () => {
    const hourly = listTraffic(db.store.db, query({ bucket: 'hour', from: NOON - HOUR, to: NOON + 2 * HOUR }));
    expect(hourly.series).toEqual([
      { start: iso(NOON - HOUR), counts: { legacy: 100 } },
      { start: iso(NOON), counts: { legacy: 1_010, modern: 5, unknown: 1 } },
      { start: iso(NOON + HOUR), counts: {} },
    ]);
    const daily = listTraffic(db.store.db, query({ bucket: 'day', from: NOON, to: NOON + DAY }));
    expect(daily.series).toEqual([
      { start: iso(NOON - 12 * HOUR), counts: { legacy: 1_110, modern: 5, unknown: 1 } },
      { start: iso(NOON + 12 * HOUR), counts: {} },
    ]);
  });
});
