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

  test('share stays in [0, 1] and each request lands in at most one column (property)', () => {
    const rowArb = fc.record({
      day: fc.integer({ min: 0, max: 20 }).map((d) => START + d * DAY_MS + 3_600_000),
      era: fc.constantFrom(...ERAS),
      transport: fc.constantFrom(...TRANSPORTS),
      version: fc.constantFrom('2024-11-05', '2025-06-18', '2026-07-28'),
      outcome: fc.constantFrom(...OUTCOMES),
      requestClass: fc.constantFrom(...REQUEST_CLASSES),
      count: fc.integer({ min: 0, max: 1000 }),
    });
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
