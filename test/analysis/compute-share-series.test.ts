import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeShareSeries, type ShareRow, type ShareSeriesInput } from '../../server/analysis/compute-share-series.js';
import { DAY_MS, WEEK_MS } from '../../server/analysis/compute-week-start.js';
import { ERAS, OUTCOMES, TRANSPORTS, type Outcome } from '../../server/protocol/vocabulary.js';
import { REQUEST_CLASSES, SHARE_BASES } from '../../server/protocol/work-request.js';
import { START } from './synthetic-series.js';

const LEGACY = { kind: 'era', value: 'legacy' } as const;

function row(overrides: Partial<ShareRow> = {}): ShareRow {
  return { day: START, era: 'legacy', transport: 'streamable-http', version: '2025-06-18', outcome: 'served', requestClass: 'work', count: 1, ...overrides };
}

function oneDay(rows: ShareRow[], scope: ShareSeriesInput['scope'] = LEGACY, basis: ShareSeriesInput['basis'] = 'work-requests') {
  const points = computeShareSeries({ rows, legacyIntegrations: [], scope, basis, bucket: 'day', from: START, to: START + DAY_MS });
  expect(points).toHaveLength(1);
  return points[0]!;
}

const REFUSED: Outcome[] = ['unsupported-version', 'header-mismatch', 'missing-capability', 'method-not-found', 'invalid-params', 'session-gone', 'client-error', 'blocked'];
const FAILED: Outcome[] = ['server-error', 'upstream-unreachable', 'no-response', 'cancelled'];

/** One share row of any dimensions, on a day of the three weeks the properties cover. */
const rowArb = fc.record({
  day: fc.integer({ min: 0, max: 20 }).map((d) => START + d * DAY_MS + 3_600_000),
  era: fc.constantFrom(...ERAS),
  transport: fc.constantFrom(...TRANSPORTS),
  version: fc.constantFrom('2024-11-05', '2025-06-18', '2026-07-28'),
  outcome: fc.constantFrom(...OUTCOMES),
  requestClass: fc.constantFrom(...REQUEST_CLASSES),
  count: fc.integer({ min: 0, max: 1000 }),
});

describe('computeShareSeries', () => {
  test('counts served-as-legacy in the legacy numerator and every served request in the denominator', () => {
    const point = oneDay([
      row({ count: 10 }),
      row({ era: 'modern', version: '2026-07-28', count: 80 }),
      row({ era: 'modern', version: '2026-07-28', outcome: 'served-as-legacy', count: 10 }),
    ]);
    expect(point).toMatchObject({ served: 100, inScope: 20, share: 0.2 });
  });

  test('shows refused and failed requests beside the share, never inside it', () => {
    const served = [row({ count: 25 }), row({ era: 'modern', count: 75 })];
    const point = oneDay([
      ...served,
      row({ outcome: 'unsupported-version', count: 5 }),
      row({ outcome: 'blocked', count: 3 }),
      row({ outcome: 'server-error', count: 2 }),
      row({ outcome: 'cancelled', count: 1 }),
      row({ era: 'modern', outcome: 'method-not-found', count: 7 }), // out of scope: in no column
      row({ outcome: 'accepted', count: 9 }), // neither served nor refused nor failed
    ]);
    expect(point).toMatchObject({ served: 100, inScope: 25, share: 0.25, refused: 8, failed: 3, probes: 0 });
  });

  test.each(REFUSED.map((outcome) => ({ outcome })))('files $outcome under refused', ({ outcome }) => {
    expect(oneDay([row({ outcome, count: 4 })])).toMatchObject({ refused: 4, failed: 0, served: 0, share: null });
  });

  test.each(FAILED.map((outcome) => ({ outcome })))('files $outcome under failed', ({ outcome }) => {
    expect(oneDay([row({ outcome, count: 4 })])).toMatchObject({ refused: 0, failed: 4, served: 0, share: null });
  });

  test('keeps refused modern server/discover probes out of every column but probes, whatever the scope', () => {
    const rows = [
      row({ era: 'modern', requestClass: 'negotiation', outcome: 'unsupported-version', count: 6 }),
      row({ era: 'modern', requestClass: 'negotiation', outcome: 'cancelled', count: 1 }),
      row({ era: 'modern', requestClass: 'negotiation', outcome: 'served', count: 4 }), // answered: a real request
      row({ era: 'legacy', requestClass: 'negotiation', outcome: 'method-not-found', count: 2 }), // legacy: a real refusal
    ];
    expect(oneDay(rows, LEGACY, 'all-requests')).toMatchObject({ served: 4, inScope: 0, refused: 2, failed: 0, probes: 7, negotiation: 4 });
    expect(oneDay(rows, { kind: 'transport', value: 'streamable-http' }, 'all-requests')).toMatchObject({ served: 4, inScope: 4, refused: 2, failed: 0, probes: 7 });
    expect(oneDay(rows)).toMatchObject({ served: 0, inScope: 0, share: null, refused: 2, failed: 0, probes: 7, negotiation: 4 });
  });

  test('on work requests, negotiation and plumbing stay out of the share and negotiation is counted beside it', () => {
    const rows = [
      row({ requestClass: 'work', count: 10 }),
      row({ requestClass: 'negotiation', count: 10 }), // ten one-call legacy sessions
      row({ era: 'modern', requestClass: 'work', count: 10 }),
      row({ era: 'modern', requestClass: 'negotiation', count: 1 }), // one discover, then ten calls
      row({ era: 'modern', requestClass: 'plumbing', count: 5 }),
    ];
    expect(oneDay(rows)).toMatchObject({ served: 20, inScope: 10, share: 0.5, negotiation: 11 });
    expect(oneDay(rows, LEGACY, 'all-requests')).toMatchObject({ served: 36, inScope: 20, share: 20 / 36, negotiation: 11 });
  });

  test('a transport scope counts served requests on that transport, and has no integration column', () => {
    const point = oneDay(
      [
        row({ transport: 'http+sse', version: '2024-11-05', count: 30 }),
        row({ count: 20 }),
        row({ era: 'modern', outcome: 'served-as-legacy', count: 50 }),
        row({ transport: 'http+sse', outcome: 'session-gone', count: 3 }),
        row({ outcome: 'session-gone', count: 9 }),
      ],
      { kind: 'transport', value: 'http+sse' },
    );
    expect(point).toMatchObject({ served: 100, inScope: 30, share: 0.3, refused: 3, legacyIntegrations: null });
  });

  test('a version scope counts served requests with that version', () => {
    const point = oneDay(
      [row({ version: '2024-11-05', count: 1 }), row({ version: '2025-06-18', count: 3 }), row({ version: '2024-11-05', outcome: 'upstream-unreachable', count: 2 })],
      { kind: 'version', value: '2024-11-05' },
    );
    expect(point).toMatchObject({ served: 4, inScope: 1, share: 0.25, failed: 2, legacyIntegrations: null });
  });

  test('zero-fills every day in [from, to), in time order', () => {
    const points = computeShareSeries({ rows: [row({ day: START + 2 * DAY_MS, count: 5 })], legacyIntegrations: [], scope: LEGACY, basis: 'work-requests', bucket: 'day', from: START, to: START + 5 * DAY_MS });
    expect(points.map((p) => (p.start - START) / DAY_MS)).toEqual([0, 1, 2, 3, 4]);
    expect(points.map((p) => p.share)).toEqual([null, null, 1, null, null]);
    expect(points.map((p) => p.served)).toEqual([0, 0, 5, 0, 0]);
  });

  test('weeks run Monday 00:00 to Sunday 24:00 UTC and a mid-week `from` is floored to its Monday', () => {
    const sundayLate = START + 7 * DAY_MS - 1;
    const mondayNext = START + 7 * DAY_MS;
    const points = computeShareSeries({
      rows: [row({ day: START + 6 * DAY_MS, count: 2 }), row({ day: mondayNext, count: 3 }), row({ day: START + 14 * DAY_MS, count: 100 })],
      legacyIntegrations: [],
      scope: LEGACY,
      basis: 'work-requests',
      bucket: 'week',
      from: START + 2 * DAY_MS, // a Wednesday
      to: sundayLate + 1 + DAY_MS, // Tuesday of the second week: that week is whole
    });
    expect(points.map((p) => p.start)).toEqual([START, mondayNext]);
    expect(points.map((p) => p.served)).toEqual([2, 3]);
  });

  test('legacy integrations are per day, and a week takes its busiest day', () => {
    const legacyIntegrations = [
      { day: START, count: 3 },
      { day: START + DAY_MS, count: 5 },
      { day: START + 8 * DAY_MS, count: 2 },
    ];
    const input = { rows: [], legacyIntegrations, scope: LEGACY, basis: 'work-requests', from: START, to: START + 14 * DAY_MS } as const;
    expect(computeShareSeries({ ...input, bucket: 'week' }).map((p) => p.legacyIntegrations)).toEqual([5, 2]);
    expect(computeShareSeries({ ...input, bucket: 'day' }).slice(0, 3).map((p) => p.legacyIntegrations)).toEqual([3, 5, 0]);
  });

  test('ignores rows outside the range and counts that are not positive numbers, and answers [] for an empty range', () => {
    const rows = [row({ day: START - DAY_MS, count: 50 }), row({ day: START + DAY_MS, count: 50 }), row({ count: Number.NaN }), row({ count: -4 }), row({ count: 2 })];
    expect(oneDay(rows)).toMatchObject({ served: 2, inScope: 2 });
    expect(computeShareSeries({ rows, legacyIntegrations: [], scope: LEGACY, basis: 'work-requests', bucket: 'day', from: START, to: START })).toEqual([]);
  });

  describe('the bridged share', () => {
    // Legacy work 30 (12 bridged), legacy negotiation 5 (2 bridged), legacy ping 3 (1 bridged), modern work 70.
    const rows = [
      row({ count: 30 }),
      row({ requestClass: 'negotiation', count: 5 }),
      row({ requestClass: 'plumbing', count: 3 }),
      row({ era: 'modern', version: '2026-07-28', count: 70 }),
    ];
    const bridgedRows = [row({ count: 12 }), row({ requestClass: 'negotiation', count: 2 }), row({ requestClass: 'plumbing', count: 1 })];
    const day = (basis: ShareSeriesInput['basis'], input: Partial<ShareSeriesInput> = {}) =>
      computeShareSeries({ rows, bridgedRows, legacyIntegrations: [], scope: LEGACY, basis, bucket: 'day', from: START, to: START + DAY_MS, ...input })[0]!;

    test('is the bridged served requests over all served requests, on the share\'s basis', () => {
      expect(day('work-requests')).toMatchObject({ served: 100, inScope: 30, share: 0.3, bridged: 12, bridgedShare: 0.12 });
      expect(day('all-requests')).toMatchObject({ served: 108, inScope: 38, share: 38 / 108, bridged: 15, bridgedShare: 15 / 108 });
    });

    test('counts only bridged requests that were served and in scope', () => {
      const extra = [row({ outcome: 'blocked', count: 9 }), row({ outcome: 'server-error', count: 4 }), row({ transport: 'stdio', count: 5 })];
      expect(day('work-requests', { bridgedRows: [...bridgedRows, ...extra] })).toMatchObject({ bridged: 12 + 5, refused: 0, failed: 0 });
      // A transport scope keeps the bridged requests on that transport only.
      const stdio = { kind: 'transport', value: 'stdio' } as const;
      expect(day('work-requests', { scope: stdio, rows: [...rows, row({ transport: 'stdio', count: 10 })], bridgedRows: [...bridgedRows, row({ transport: 'stdio', count: 6 })] })).toMatchObject({
        served: 110,
        inScope: 10,
        bridged: 6,
        bridgedShare: 6 / 110,
      });
    });

    test('adds up over a week and stays zero (null with nothing served) without bridged rows', () => {
      const week = computeShareSeries({
        rows: [row({ count: 10 }), row({ day: START + 3 * DAY_MS, count: 10 }), row({ era: 'modern', day: START + 6 * DAY_MS, count: 20 })],
        bridgedRows: [row({ count: 4 }), row({ day: START + 3 * DAY_MS, count: 6 }), row({ day: START + 7 * DAY_MS, count: 50 })],
        legacyIntegrations: [],
        scope: LEGACY,
        basis: 'work-requests',
        bucket: 'week',
        from: START,
        to: START + WEEK_MS,
      });
      expect(week).toEqual([expect.objectContaining({ served: 40, inScope: 20, bridged: 10, bridgedShare: 0.25 })]);
      const points = computeShareSeries({ rows: [row({ count: 3 })], legacyIntegrations: [], scope: LEGACY, basis: 'work-requests', bucket: 'day', from: START, to: START + 2 * DAY_MS });
      expect(points.map((p) => [p.bridged, p.bridgedShare])).toEqual([[0, 0], [0, null]]);
    });

    test('never exceeds the share, even when the bridged rows count more than the share rows', () => {
      expect(day('work-requests', { bridgedRows: [row({ count: 45 })] })).toMatchObject({ inScope: 30, bridged: 30, bridgedShare: 0.3, share: 0.3 });
    });
  });

  test('0 ≤ bridged ≤ inScope, so the bridged share never exceeds the share (property)', () => {
    const scopeArb = fc.constantFrom<ShareSeriesInput['scope']>(LEGACY, { kind: 'transport', value: 'stdio' }, { kind: 'version', value: '2025-06-18' });
    // Bridged rows are some of the share rows' requests, with any count up to the row's.
    const inputArb = fc.array(fc.tuple(rowArb, fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 40 }).map((drawn) => ({
      rows: drawn.map(([r]) => r),
      bridgedRows: drawn.filter(([, bridged]) => bridged).map(([r, , part]) => ({ ...r, count: Math.floor(r.count * part) })),
    }));
    fc.assert(
      fc.property(inputArb, scopeArb, fc.constantFrom(...SHARE_BASES), fc.constantFrom('day' as const, 'week' as const), ({ rows, bridgedRows }, scope, basis, bucket) => {
        for (const p of computeShareSeries({ rows, bridgedRows, legacyIntegrations: [], scope, basis, bucket, from: START, to: START + 3 * WEEK_MS })) {
          expect(p.bridged).toBeGreaterThanOrEqual(0);
          expect(p.bridged).toBeLessThanOrEqual(p.inScope);
          if (p.served === 0) expect(p.bridgedShare).toBeNull();
          else expect(p.bridgedShare).toBeLessThanOrEqual(p.share!);
        }
      }),
    );
  });

  test('share stays in [0, 1] and each request lands in at most one column (property)', () => {
    const scopeArb = fc.constantFrom<ShareSeriesInput['scope']>(LEGACY, { kind: 'transport', value: 'http+sse' }, { kind: 'version', value: '2025-06-18' });
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), scopeArb, fc.constantFrom(...SHARE_BASES), fc.constantFrom('day' as const, 'week' as const), (rows, scope, basis, bucket) => {
        const points = computeShareSeries({ rows, legacyIntegrations: [], scope, basis, bucket, from: START, to: START + 3 * WEEK_MS });
        const total = rows.reduce((sum, r) => sum + r.count, 0);
        let columns = 0;
        for (const p of points) {
          expect(p.inScope).toBeGreaterThanOrEqual(0);
          expect(p.inScope).toBeLessThanOrEqual(p.served);
          if (p.served === 0) expect(p.share).toBeNull();
          else expect(p.share).toBeGreaterThanOrEqual(0), expect(p.share).toBeLessThanOrEqual(1);
          columns += p.served + p.refused + p.failed + p.probes;
        }
        expect(columns).toBeLessThanOrEqual(total);
      }),
    );
  });
});
