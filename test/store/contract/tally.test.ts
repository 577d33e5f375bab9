import { describe, expect, test } from 'vitest';
import type { TallyBatch } from '../../../server/tally/tally-cell.js';
import { BACKENDS, cell, DAY, DAY_START, HOUR, MINUTE, NOON, sighting, sumOf, useStores, writeCells } from './backends.js';

describe.each(BACKENDS)('%s store: counts', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('a fresh store has no traffic, no nodes and no integrations', async () => {
    const store = await open();
    expect(await store.listIntegrations()).toEqual([]);
    expect(await store.listSidecarNodes()).toEqual([]);
    expect(await store.listShareRows(0, NOON + DAY)).toEqual([]);
    const traffic = await store.listTraffic({ from: NOON, to: NOON + 3 * MINUTE, bucket: 'minute', groupBy: 'era', filters: {} });
    expect(traffic.series.map((s) => s.counts)).toEqual([{}, {}, {}]);
  });

  test('an empty write (the flusher asking whether the store is back) succeeds and writes nothing', async () => {
    const store = await open();
    expect(await store.writeTally([], NOON)).toEqual({ written: 0, skipped: 0, writtenEvents: 0 });
    expect(await store.listSidecarNodes()).toEqual([]);
  });

  test('each cell lands in its minute, hour and day bucket, and every bucket of the range is present', async () => {
    const store = await open();
    const cells = [cell({ minute: NOON + MINUTE, count: 2, mismatchCount: 1 }), cell({ minute: NOON + 2 * MINUTE, count: 3 }), cell({ minute: NOON + HOUR, count: 4, wouldBlockCount: 2 })];
    await writeCells(store, cells);

    const minutes = await store.listTraffic({ from: NOON + 30_000, to: NOON + HOUR + 2 * MINUTE, bucket: 'minute', groupBy: 'era', filters: {} });
    expect(minutes.from).toBe(new Date(NOON).toISOString());
    expect(minutes.series).toHaveLength(HOUR / MINUTE + 2);
    expect(minutes.series[0]).toEqual({ start: new Date(NOON).toISOString(), counts: {} });
    expect(minutes.series[1]!.counts).toEqual({ legacy: 2 });
    expect(minutes.series[2]!.counts).toEqual({ legacy: 3 });
    expect(minutes.series[HOUR / MINUTE]!.counts).toEqual({ legacy: 4 });
    expect(minutes.totals).toEqual({ legacy: sumOf(cells) });
    expect(minutes.claimMismatches).toBe(1);
    expect(minutes.wouldBlock).toBe(2);

    const hours = await store.listTraffic({ from: NOON, to: NOON + 2 * HOUR, bucket: 'hour', groupBy: 'era', filters: {} });
    expect(hours.series.map((s) => s.counts)).toEqual([{ legacy: 5 }, { legacy: 4 }]);
    const days = await store.listTraffic({ from: NOON, to: DAY_START + DAY, bucket: 'day', groupBy: 'era', filters: {} });
    expect(days.series).toEqual([{ start: new Date(DAY_START).toISOString(), counts: { legacy: sumOf(cells) } }]);
  });

  test('the same labels written twice add up, in one call and across calls', async () => {
    const store = await open();
    const cells = [cell({ count: 2, mismatchCount: 1 }), cell({ count: 5, wouldBlockCount: 3 }), cell({ minute: NOON + MINUTE, count: 7 })];
    await writeCells(store, cells);
    await writeCells(store, [cell({ count: 11 })]);
    const minutes = await store.listTraffic({ from: NOON, to: NOON + 2 * MINUTE, bucket: 'minute', groupBy: 'era', filters: {} });
    expect(minutes.series.map((s) => s.counts)).toEqual([{ legacy: 2 + 5 + 11 }, { legacy: 7 }]);
    expect(minutes.claimMismatches).toBe(1);
    expect(minutes.wouldBlock).toBe(3);
    const hours = await store.listTraffic({ from: NOON, to: NOON + HOUR, bucket: 'hour', groupBy: 'era', filters: {} });
    expect(hours.totals).toEqual({ legacy: 2 + 5 + 7 + 11 });
  });

  test('groups by any dimension and filters on the others', async () => {
    const store = await open();
    const cells = [
      cell({ method: 'tools/call', integration: 'tok_a', count: 2 }),
      cell({ method: 'tools/list', integration: 'tok_a', count: 3 }),
      cell({ method: 'tools/call', integration: 'tok_b', count: 5, node: 'node-2' }),
      cell({ method: 'constructor', integration: 'tok_a', count: 7, era: 'modern', version: '2026-07-28' }),
    ];
    await writeCells(store, cells);
    const range = { from: NOON, to: NOON + HOUR, bucket: 'hour' as const };
    const byMethod = await store.listTraffic({ ...range, groupBy: 'method', filters: { integration: 'tok_a' } });
    expect({ ...byMethod.totals }).toEqual({ 'tools/call': 2, 'tools/list': 3, constructor: 7 });
    const byNode = await store.listTraffic({ ...range, groupBy: 'node', filters: { method: 'tools/call' } });
    expect({ ...byNode.totals }).toEqual({ 'node-1': 2, 'node-2': 5 });
    const byVersion = await store.listTraffic({ ...range, groupBy: 'version', filters: { era: 'legacy', node: 'node-1' } });
    expect({ ...byVersion.totals }).toEqual({ '2025-06-18': sumOf(cells, (c) => c.era === 'legacy' && c.node === 'node-1') });
    const none = await store.listTraffic({ ...range, groupBy: 'era', filters: { integration: 'nobody' } });
    expect(none.series.map((s) => s.counts)).toEqual([{}]);
  });

  test('label values with quotes, braces, commas, backslashes and non-ASCII come back as written', async () => {
    const store = await open();
    const odd = ['a"b', '{x,y}', 'back\\slash', 'NULL', '', 'ünï ☃', "it's"];
    await writeCells(store, odd.map((method, i) => cell({ method, count: i + 1 })), odd.map((key) => sighting({ key, clientInfo: { name: key, version: '1' } })));
    const byMethod = await store.listTraffic({ from: NOON, to: NOON + MINUTE, bucket: 'minute', groupBy: 'method', filters: {} });
    expect({ ...byMethod.totals }).toEqual(Object.fromEntries(odd.map((method, i) => [method, i + 1])));
    expect((await store.listIntegrations()).map((i) => [i.key, i.clientInfoName])).toEqual([...odd].sort().map((key) => [key, key]));
  });

  test('counts beyond 32 bits come back as numbers', async () => {
    const store = await open();
    const big = 3_000_000_000;
    await writeCells(store, [cell({ count: big }), cell({ method: 'tools/list', count: big })]);
    const day = await store.listTraffic({ from: DAY_START, to: DAY_START + DAY, bucket: 'day', groupBy: 'era', filters: {} });
    expect(day.totals.legacy).toBe(2 * big);
    expect(await store.sumServedRequests({ from: DAY_START, to: DAY_START + DAY })).toBe(2 * big);
  });

  test('the share rollup holds client requests per day, node and class, and can be read for one node', async () => {
    const store = await open();
    await writeCells(store, [
      cell({ count: 2 }),
      cell({ minute: NOON + MINUTE, count: 3 }),
      cell({ node: 'node-2', era: 'modern', version: '2026-07-28', count: 5 }),
      cell({ method: 'initialize', count: 1 }),
      cell({ method: 'ping', count: 4 }),
      cell({ kind: 'notification', method: 'notifications/initialized', count: 9 }),
      cell({ minute: NOON + DAY, count: 6 }),
    ]);
    const row = (node: string, era: 'legacy' | 'modern', version: string, requestClass: string, count: number, day = DAY_START) => ({
      day,
      node,
      era,
      transport: 'streamable-http',
      version,
      outcome: 'served',
      requestClass,
      count,
    });
    const byKey = (a: { node: string; requestClass: string; day: number }, b: { node: string; requestClass: string; day: number }) =>
      a.day - b.day || a.node.localeCompare(b.node) || a.requestClass.localeCompare(b.requestClass);
    const all = await store.listShareRows(DAY_START, DAY_START + DAY);
    expect([...all].sort(byKey)).toEqual(
      [
        row('node-1', 'legacy', '2025-06-18', 'work', 5),
        row('node-1', 'legacy', '2025-06-18', 'negotiation', 1),
        row('node-1', 'legacy', '2025-06-18', 'plumbing', 4),
        row('node-2', 'modern', '2026-07-28', 'work', 5),
      ].sort(byKey),
    );
    expect(await store.listShareRows(DAY_START, DAY_START + DAY, 'node-2')).toEqual([row('node-2', 'modern', '2026-07-28', 'work', 5)]);
    expect(await store.listShareRows(DAY_START + DAY, DAY_START + 2 * DAY)).toEqual([row('node-1', 'legacy', '2025-06-18', 'work', 6, DAY_START + DAY)]);
    const days = (await store.listShareRows(DAY_START, DAY_START + 2 * DAY)).map((r) => r.day);
    expect(days).toEqual([...days].sort((a, b) => a - b));
  });

  test('legacy callers per day count only served legacy work, and new ones are listed from their first day', async () => {
    const store = await open();
    const day1 = NOON;
    const day2 = NOON + DAY;
    await writeCells(
      store,
      [
        cell({ integration: 'tok_a', minute: day1 }),
        cell({ integration: 'tok_a', minute: day2 }),
        cell({ integration: 'tok_b', minute: day2, outcome: 'served-as-legacy', era: 'modern', version: '2026-07-28' }),
        cell({ integration: 'tok_c', minute: day1, era: 'modern', version: '2026-07-28' }),
        cell({ integration: 'tok_d', minute: day1, outcome: 'blocked' }),
        cell({ integration: 'tok_e', minute: day1, method: 'initialize' }),
        cell({ integration: 'tok_f', minute: day2, method: 'ping' }),
      ],
      [sighting({ key: 'tok_b', clientInfo: { name: 'claimed-b', version: '1.0' } })],
    );
    expect(await store.listLegacyCallerCounts(DAY_START, DAY_START + 3 * DAY)).toEqual([
      { day: DAY_START, count: 1 },
      { day: DAY_START + DAY, count: 2 },
    ]);
    expect(await store.listLegacyCallerCounts(DAY_START + DAY, DAY_START + 3 * DAY)).toEqual([{ day: DAY_START + DAY, count: 2 }]);
    await store.updateIntegration('tok_b', { displayName: 'Team B' }, NOON);
    expect(await store.listNewLegacyCallers(DAY_START + DAY)).toEqual({
      meteredSince: DAY_START,
      callers: [{ integration: 'tok_b', firstDay: DAY_START + DAY, displayName: 'Team B', clientInfoName: 'claimed-b' }],
    });
    const everyone = await store.listNewLegacyCallers(DAY_START);
    expect(everyone.callers.map((c) => [c.integration, c.firstDay])).toEqual([
      ['tok_a', DAY_START],
      ['tok_b', DAY_START + DAY],
    ]);
  });

  test('no legacy work yet: nothing metered, no new callers', async () => {
    const store = await open();
    expect(await store.listNewLegacyCallers(DAY_START)).toEqual({ meteredSince: null, callers: [] });
    expect(await store.listLegacyCallerCounts(0, NOON)).toEqual([]);
  });

  test('integration sightings merge: earliest first seen, latest last seen, claims kept until replaced', async () => {
    const store = await open();
    await writeCells(store, [], [sighting({ firstSeen: NOON, lastSeen: NOON + MINUTE, clientInfo: { name: 'cli', version: '1' } }), sighting({ key: 'tok_b', lastLegacySeen: NOON })]);
    await writeCells(
      store,
      [],
      [
        sighting({ source: 'gateway-header', firstSeen: NOON - HOUR, lastSeen: NOON + 5 * MINUTE, lastLegacySeen: NOON + 2 * MINUTE }),
        // The same caller twice in one flush folds the same way.
        sighting({ firstSeen: NOON + HOUR, lastSeen: NOON + 3 * MINUTE, clientInfo: { name: 'cli', version: '2' } }),
        sighting({ key: 'tok_b', lastLegacySeen: undefined, lastSeen: NOON + HOUR }),
      ],
    );
    const [a, b] = await store.listIntegrations();
    expect(a).toMatchObject({
      key: 'tok_a',
      source: 'bearer-fingerprint',
      firstSeen: NOON - HOUR,
      lastSeen: NOON + 5 * MINUTE,
      lastLegacySeen: NOON + 2 * MINUTE,
      clientInfoName: 'cli',
      clientInfoVersion: '2',
      status: 'unknown',
      displayName: null,
    });
    expect(b).toMatchObject({ key: 'tok_b', firstSeen: NOON, lastSeen: NOON + HOUR, lastLegacySeen: NOON, clientInfoName: null });
    expect(await store.getIntegration('tok_a')).toEqual(a);
    expect(await store.getIntegration('nobody')).toBeUndefined();
  });

  test('integrations are listed in key order, byte by byte', async () => {
    const store = await open();
    const keys = ['b', 'B', 'a', 'A', '_', 'a-1'];
    await writeCells(store, [], keys.map((key) => sighting({ key })));
    expect((await store.listIntegrations()).map((i) => i.key)).toEqual([...keys].sort());
  });
});

describe.each(BACKENDS)('%s store: each batch once', (_dialect, backend) => {
  const { open } = useStores(backend);
  const batch = (count: number): TallyBatch => ({ cells: [cell({ count })], integrations: [] });
  const total = async (store: Awaited<ReturnType<typeof open>>) =>
    (await store.listTraffic({ from: DAY_START, to: DAY_START + DAY, bucket: 'day', groupBy: 'era', filters: {} })).totals.legacy ?? 0;

  test('the same stream and sequence number written twice counts once', async () => {
    const store = await open();
    const flush = [{ stream: 's1', node: 'node-1', seq: 1, batch: batch(3) }];
    expect(await store.writeTally(flush, NOON)).toEqual({ written: 1, skipped: 0, writtenEvents: 3 });
    expect(await store.writeTally(flush, NOON + MINUTE)).toEqual({ written: 0, skipped: 1, writtenEvents: 0 });
    expect(await total(store)).toBe(3);
    const share = await store.listShareRows(DAY_START, DAY_START + DAY);
    expect(share.map((r) => r.count)).toEqual([3]);
  });

  test('a batch at or below the stream\'s last sequence number is skipped, one above it written', async () => {
    const store = await open();
    expect(await store.writeTally([{ stream: 's1', node: 'node-1', seq: 2, batch: batch(2) }], NOON)).toEqual({ written: 1, skipped: 0, writtenEvents: 2 });
    expect(await store.writeTally([{ stream: 's1', node: 'node-1', seq: 1, batch: batch(100) }], NOON)).toEqual({ written: 0, skipped: 1, writtenEvents: 0 });
    expect(
      await store.writeTally(
        [
          { stream: 's1', node: 'node-1', seq: 3, batch: batch(3) },
          { stream: 's1', node: 'node-1', seq: 3, batch: batch(100) },
          { stream: 's1', node: 'node-1', seq: 4, batch: batch(4) },
          { stream: 's2', node: 'node-1', seq: 1, batch: batch(5) },
        ],
        NOON,
      ),
    ).toEqual({ written: 3, skipped: 1, writtenEvents: 3 + 4 + 5 });
    expect(await total(store)).toBe(2 + 3 + 4 + 5);
  });

  test('a heartbeat records the node; later ones move its flush time and policy, not its first sighting', async () => {
    const store = await open();
    const first = { node: 'node-1', kind: 'serve' as const, at: NOON, policyVersion: 1, startedAt: NOON - HOUR };
    expect(await store.writeTally([], NOON, first)).toEqual({ written: 0, skipped: 0, writtenEvents: 0 });
    await store.writeTally([{ stream: 's1', node: 'node-1', seq: 1, batch: batch(1) }], NOON + MINUTE, { ...first, at: NOON + MINUTE, policyVersion: 2, kind: 'wrap' });
    await store.writeTally([], NOON, { node: 'node-0', kind: 'middleware', at: NOON, policyVersion: 0, startedAt: NOON });
    expect(await store.listSidecarNodes()).toEqual([
      { node: 'node-0', kind: 'middleware', firstSeen: NOON, lastFlushAt: NOON, policyVersion: 0, startedAt: NOON },
      { node: 'node-1', kind: 'wrap', firstSeen: NOON, lastFlushAt: NOON + MINUTE, policyVersion: 2, startedAt: NOON - HOUR },
    ]);
  });

  test('spooled batches from before streams are written once per batch id', async () => {
    const store = await open();
    expect(await store.writeLegacySpoolBatches([{ batchId: 'b1', batch: batch(2) }, { batchId: 'b2', batch: batch(3) }], NOON)).toEqual({ written: 2, skipped: 0, writtenEvents: 2 + 3 });
    expect(await store.writeLegacySpoolBatches([{ batchId: 'b2', batch: batch(3) }, { batchId: 'b3', batch: batch(4) }, { batchId: 'b3', batch: batch(4) }], NOON)).toEqual({ written: 1, skipped: 2, writtenEvents: 4 });
    expect(await total(store)).toBe(2 + 3 + 4);
  });
});

describe.each(BACKENDS)('%s store: retention', (_dialect, backend) => {
  const { open } = useStores(backend);

  test('minute and hour rows past retention go, day rows stay; the finest whole table follows', async () => {
    const store = await open();
    const cells = [cell({ minute: NOON - 10 * DAY, count: 1 }), cell({ minute: NOON - 3 * DAY, count: 2 }), cell({ minute: NOON, count: 3 })];
    await writeCells(store, cells);
    expect(await store.bucketFor(NOON - 10 * DAY)).toBe('minute');
    expect(await store.bucketFor(NOON - 11 * DAY)).toBe('day');
    // Minute rows older than 2 days (two of them), hour rows older than 5 days (one).
    expect(await store.deleteExpiredTraffic(NOON, { minuteDays: 2, hourDays: 5 })).toBe(3);
    expect(await store.deleteExpiredTraffic(NOON, { minuteDays: 2, hourDays: 5 })).toBe(0);
    expect(await store.bucketFor(NOON - 10 * DAY)).toBe('day');
    expect(await store.bucketFor(NOON - 3 * DAY)).toBe('hour');
    expect(await store.bucketFor(NOON)).toBe('minute');
    const days = await store.listTraffic({ from: NOON - 10 * DAY, to: NOON + DAY, bucket: 'day', groupBy: 'era', filters: {} });
    expect(days.totals.legacy).toBe(sumOf(cells));
    const minutes = await store.listTraffic({ from: NOON - 10 * DAY, to: NOON + MINUTE, bucket: 'minute', groupBy: 'era', filters: {} });
    expect(minutes.totals.legacy).toBe(3);
  });

  test('an empty store reads day rows', async () => {
    const store = await open();
    expect(await store.bucketFor(NOON)).toBe('day');
  });
});
