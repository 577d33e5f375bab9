import { describe, expect, test } from 'vitest';
import { bucketStart } from '../../../server/lib/time-bucket.js';
import type { TallyCell } from '../../../server/tally/tally-cell.js';
import { BACKENDS, cell, DAY, DAY_START, HOUR, sumOf, useStores, writeCells } from './backends.js';

const D0 = DAY_START - 2 * DAY;
const D1 = D0 + DAY;
const D2 = D1 + DAY;
const at = (day: number) => day + 12 * HOUR;

const CELLS: TallyCell[] = [
  cell({ integration: 'tok_a', minute: at(D0), count: 5, wouldBlockCount: 2 }),
  cell({ integration: 'tok_a', minute: at(D1), count: 3, version: '2025-03-26', transport: 'http+sse', reason: 'legacy-version-header' }),
  cell({ integration: 'tok_b', minute: at(D1), count: 7, era: 'modern', version: '2026-07-28', reason: 'modern-meta' }),
  cell({ integration: 'tok_b', minute: at(D2), count: 4, era: 'modern', version: '2026-07-28', reason: 'modern-meta', outcome: 'served-as-legacy' }),
  cell({ integration: 'tok_c', minute: at(D2), count: 6, outcome: 'blocked' }),
  cell({ integration: 'tok_c', minute: at(D2) - 3 * HOUR, count: 2, outcome: 'blocked' }),
  cell({ integration: 'tok_c', minute: at(D0), count: 2, method: 'initialize' }),
  cell({ integration: 'tok_d', minute: at(D1), count: 1, method: 'ping' }),
];

const served = (c: TallyCell) => c.outcome === 'served' || c.outcome === 'served-as-legacy';
const work = (c: TallyCell) => c.kind === 'request' && c.method !== 'initialize' && c.method !== 'ping';
const legacyServed = (c: TallyCell) => c.outcome === 'served-as-legacy' || (c.era === 'legacy' && c.outcome === 'served');

describe.each(BACKENDS)('%s store: scope queries', (_dialect, backend) => {
  const { open } = useStores(backend);
  const legacy = { kind: 'era' as const, value: 'legacy' };

  async function seeded() {
    const store = await open();
    await writeCells(store, CELLS);
    return store;
  }

  test('distinct callers with served modern work per day: a modern answer served as legacy is not modern work', async () => {
    const store = await seeded();
    await writeCells(store, [cell({ integration: 'tok_e', minute: at(D1), count: 2, era: 'modern', version: '2026-07-28', reason: 'modern-meta' }), cell({ integration: 'tok_f', minute: at(D2), count: 1, era: 'modern', version: '2026-07-28', reason: 'modern-meta', outcome: 'blocked' })]);
    expect(await store.listModernCallerCounts(D0, D2 + DAY)).toEqual([{ day: D1, count: 2 }]);
    expect(await store.listModernCallerCounts(D2, D2 + DAY)).toEqual([]);
  });

  test('callers in a scope: requests, first and last days, versions, transports and would-block', async () => {
    const store = await seeded();
    const rows = await store.listScopeCallers(legacy, { from: D0, to: D2 + DAY });
    const normalized = rows.map((r) => ({ ...r, versions: [...r.versions].sort(), transports: [...r.transports].sort() })).sort((a, b) => a.integration.localeCompare(b.integration));
    expect(normalized).toEqual([
      { integration: 'tok_a', requests: 8, firstSeen: D0, lastSeen: D1, versions: ['2025-03-26', '2025-06-18'], transports: ['http+sse', 'streamable-http'], wouldBlock: 2 },
      { integration: 'tok_b', requests: 4, firstSeen: D2, lastSeen: D2, versions: ['2026-07-28'], transports: ['streamable-http'], wouldBlock: 0 },
    ]);
    const narrow = await store.listScopeCallers({ kind: 'transport', value: 'http+sse' }, { from: D1, to: D2 });
    expect(narrow.map((r) => [r.integration, r.requests])).toEqual([['tok_a', 3]]);
  });

  test('last use, callers before a day, and last traffic (refusals included)', async () => {
    const store = await seeded();
    expect(await store.listScopeLastUse(legacy, D0)).toEqual(new Map([['tok_a', D1], ['tok_b', D2]]));
    expect(await store.listScopeLastUse(legacy, D2)).toEqual(new Map([['tok_b', D2]]));
    expect(await store.listScopeCallersBefore(legacy, D1)).toEqual(new Set(['tok_a']));
    expect(await store.listScopeCallersBefore({ kind: 'version', value: '2026-07-28' }, D2 + DAY)).toEqual(new Set(['tok_b']));
    expect(await store.listScopeLastTraffic(legacy, D0)).toEqual(new Map([['tok_a', D1], ['tok_b', D2], ['tok_c', D2]]));
  });

  test('the share of a scope on each basis', async () => {
    const store = await seeded();
    expect(await store.sumScopeShare(legacy, 'work-requests', D0)).toEqual({
      inScope: sumOf(CELLS, (c) => work(c) && legacyServed(c)),
      total: sumOf(CELLS, (c) => work(c) && served(c)),
    });
    expect(await store.sumScopeShare(legacy, 'all-requests', D0)).toEqual({
      inScope: sumOf(CELLS, (c) => c.kind === 'request' && legacyServed(c)),
      total: sumOf(CELLS, (c) => c.kind === 'request' && served(c)),
    });
    expect(await store.sumScopeShare(legacy, 'work-requests', D2 + DAY)).toEqual({ inScope: 0, total: 0 });
  });

  test('refusals and would-block in a scope, at the bucket asked for', async () => {
    const store = await seeded();
    expect(await store.sumScopeRefusals(legacy, { from: D0, to: D2 + DAY }, 'day')).toEqual({
      refused: sumOf(CELLS, (c) => c.outcome === 'blocked' && c.era === 'legacy'),
      wouldBlock: CELLS.reduce((n, c) => n + (c.era === 'legacy' ? (c.wouldBlockCount ?? 0) : 0), 0),
      bucket: 'day',
    });
    expect(await store.sumScopeRefusals(legacy, { from: at(D2) - HOUR, to: at(D2) + HOUR }, 'hour')).toEqual({ refused: 6, wouldBlock: 0, bucket: 'hour' });
    expect(await store.sumScopeRefusals({ kind: 'transport', value: 'http+sse' }, { from: D0, to: D2 + DAY }, 'minute')).toEqual({ refused: 0, wouldBlock: 0, bucket: 'minute' });
  });

  test('served work requests over a span', async () => {
    const store = await seeded();
    expect(await store.sumServedRequests({ from: D0, to: D2 + DAY })).toBe(sumOf(CELLS, (c) => work(c) && served(c)));
    expect(await store.sumServedRequests({ from: D1, to: D2 })).toBe(sumOf(CELLS, (c) => work(c) && served(c) && bucketStart(c.minute, 'day') === D1));
  });

  test('served versions, most used first', async () => {
    const store = await seeded();
    await writeCells(store, [cell({ version: '(none)', count: 1000, minute: at(D1) }), cell({ version: 'other', count: 1000, minute: at(D1) })]);
    const totals = new Map<string, number>();
    for (const c of CELLS) if (c.kind === 'request' && served(c)) totals.set(c.version, (totals.get(c.version) ?? 0) + c.count);
    const expected = [...totals].sort((a, b) => b[1] - a[1]).map(([v]) => v);
    expect(await store.listServedVersions(D0)).toEqual(expected);
    expect(await store.listServedVersions(D2)).toEqual(['2026-07-28']);
  });

  test('refusals per caller in an hour and the day before it', async () => {
    const store = await seeded();
    const hour = bucketStart(at(D2), 'hour');
    // A caller the registry does not know yet is listed without a name.
    expect(await store.listCallerRefusals(hour)).toEqual([{ integration: 'tok_c', displayName: null, inHour: 6, dayBefore: 2 }]);
    await writeCells(store, [], [{ key: 'tok_c', source: 'bearer-fingerprint', firstSeen: D0, lastSeen: D2, lastLegacySeen: undefined, clientInfo: undefined }]);
    await store.updateIntegration('tok_c', { displayName: 'Team C' }, D0);
    expect(await store.listCallerRefusals(hour)).toEqual([{ integration: 'tok_c', displayName: 'Team C', inHour: 6, dayBefore: 2 }]);
    expect(await store.listCallerRefusals(hour + 3 * HOUR)).toEqual([{ integration: 'tok_c', displayName: 'Team C', inHour: 0, dayBefore: 8 }]);
    expect(await store.listCallerRefusals(hour + 2 * DAY)).toEqual([]);
  });

  test('served and legacy-served work per caller', async () => {
    const store = await seeded();
    const volumes = (await store.listCallerVolumes(D0)).sort((a, b) => a.integration.localeCompare(b.integration));
    const expected = ['tok_a', 'tok_b'].map((integration) => ({
      integration,
      served: sumOf(CELLS, (c) => c.integration === integration && work(c) && served(c)),
      legacyServed: sumOf(CELLS, (c) => c.integration === integration && work(c) && legacyServed(c)),
    }));
    expect(volumes).toEqual(expected);
  });
});
