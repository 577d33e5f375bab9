import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeTrend, DEFAULT_TREND_THRESHOLDS, type Trend } from '../../server/analysis/compute-trend.js';
import { DAY_MS, WEEK_MS } from '../../server/analysis/compute-week-start.js';
import { MAX_EXTENSION_WEEKS } from '../../server/analysis/project-share-crossing.js';
import { afterWeeks, dailyRows, START, weeklyPoints, weeklySeries } from './synthetic-series.js';

const TARGET = 0.005;
const T = DEFAULT_TREND_THRESHOLDS;
const weekendHeavy = (weekday: number) => (weekday >= 5 ? 3 : 1);

function fitted(trend: Trend): Extract<Trend, { kind: 'fitted' }> {
  expect(trend.kind).toBe('fitted');
  return trend as Extract<Trend, { kind: 'fitted' }>;
}

describe('computeTrend', () => {
  test('an exponential decline (40%, halving every 5 weeks) is significant and projects within a day of the analytic crossing', () => {
    const rows = dailyRows({ days: 70, share: (d) => 0.4 * 2 ** (-(d + 0.5) / 35), servedPerDay: 100_000, noise: 0.03, seed: 7 });
    const trend = fitted(computeTrend(weeklySeries(rows, 10), TARGET, T, afterWeeks(10)));
    const expected = START + 35 * Math.log2(0.4 / TARGET) * DAY_MS; // day 221.3
    expect(trend.significantDecrease).toBe(true);
    expect(trend.flat).toBe(false);
    expect(trend.logSlopePerWeek).toBeCloseTo(-Math.LN2 / 5, 2);
    expect(Math.abs(trend.projectedDate! - expected)).toBeLessThan(DAY_MS);
    expect(trend.reason).toMatch(/halving every 5\.0 weeks\) reaches the 0\.50% target on 2026-08-1[34]\./);
  });

  test('draws the fitted line at each used week and on weekly to the first week start past the crossing', () => {
    const trend = fitted(computeTrend(weeklyPoints([0.4, 0.2, 0.1, 0.05, 0.025]), 0.01, T, afterWeeks(5)));
    const starts = trend.line.map((p) => (p.start - START) / WEEK_MS);
    expect(starts).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // Points sit at week starts, half a week before the midpoint each weekly average stands for.
    expect(trend.line[0]!.share).toBeCloseTo(0.4 * Math.SQRT2, 10);
    expect(trend.projectedDate! - START).toBeCloseTo((0.5 + Math.log2(40)) * WEEK_MS, -3);
    expect(trend.line.at(-1)!.share).toBeLessThanOrEqual(0.01);
  });

  test('a decline that flattens at 8% is flat at two consecutive weekly checks, with no projection', () => {
    const rows = dailyRows({ days: 30 * 7, share: (d) => 0.08 + 0.32 * 2 ** (-d / 10), servedPerDay: 20_000, noise: 0.05, seed: 11 });
    const series = weeklySeries(rows, 30);
    for (const now of [afterWeeks(28), afterWeeks(29)]) {
      const trend = fitted(computeTrend(series, TARGET, T, now));
      expect(trend.weeks).toBe(12);
      expect(trend).toMatchObject({ significantDecrease: false, flat: true, projectedDate: null, projection: { kind: 'flat' } });
      expect(Math.abs(trend.slopePerWeek)).toBeLessThan(T.flatSlopePerWeek);
      expect(trend.line).toHaveLength(12);
    }
  });

  test('a noisy flat series is flat', () => {
    const rows = dailyRows({ days: 16 * 7, share: () => 0.08, servedPerDay: 20_000, noise: 0.05, seed: 3 });
    expect(computeTrend(weeklySeries(rows, 16), TARGET, T, afterWeeks(16))).toMatchObject({ kind: 'fitted', flat: true, significantDecrease: false, projectedDate: null });
  });

  test('weekends at 3× the weekday share do not hide a steady decline, and the partial current week is left out', () => {
    const rows = dailyRows({ days: 12 * 7 + 3, share: (d) => 0.1 * 2 ** (-d / 42), weekdayFactor: weekendHeavy, servedPerDay: 20_000, noise: 0.05, seed: 5 });
    const trend = fitted(computeTrend(weeklySeries(rows, 13), TARGET, T, START + (12 * 7 + 3) * DAY_MS));
    expect(trend.weeks).toBe(12);
    expect(trend).toMatchObject({ significantDecrease: true, flat: false });
    expect(trend.logSlopePerWeek).toBeCloseTo(-Math.LN2 / 6, 1);
  });

  test('the same seasonality over a flat share is flat, not a significant decrease, though the days swing threefold', () => {
    const rows = dailyRows({ days: 12 * 7 + 3, share: () => 0.05, weekdayFactor: weekendHeavy, servedPerDay: 20_000, noise: 0.05, seed: 5 });
    const shares = rows.filter((r) => r.era === 'legacy').map((r) => r.count);
    expect(Math.max(...shares.slice(0, 7)) / Math.min(...shares.slice(0, 7))).toBeGreaterThan(2.5);
    // Ending the window on a Wednesday: if the partial week counted, its weekday-only share would look like a drop.
    expect(computeTrend(weeklySeries(rows, 13), TARGET, T, START + (12 * 7 + 3) * DAY_MS)).toMatchObject({ kind: 'fitted', weeks: 12, flat: true, significantDecrease: false });
  });

  test('a rising share has no projection', () => {
    const rows = dailyRows({ days: 10 * 7, share: (d) => 0.02 * 2 ** (d / 35), servedPerDay: 20_000, noise: 0.05, seed: 5 });
    const trend = fitted(computeTrend(weeklySeries(rows, 10), TARGET, T, afterWeeks(10)));
    expect(trend).toMatchObject({ significantDecrease: false, flat: false, projectedDate: null, projection: { kind: 'not-falling' } });
    expect(trend.reason).toContain('not falling');
  });

  test('a share already below target dates from the first week of its run at or below the target', () => {
    const trend = fitted(computeTrend(weeklyPoints([0.02, 0.004, 0.006, 0.004, 0.003]), TARGET, T, afterWeeks(5)));
    expect(trend.projection).toEqual({ kind: 'reached', date: START + 3 * WEEK_MS });
    expect(trend.projectedDate).toBe(START + 3 * WEEK_MS);
    expect(trend.flat).toBe(false);
  });

  test('fewer complete weeks with traffic than minPoints is not enough data', () => {
    const empty = { served: 0, inScope: 0, share: null };
    const points = weeklyPoints([0.3, 0.2, 0.1, 0.05, 0.02]).map((p, i) => (i === 1 ? { ...p, ...empty } : p));
    const trend = computeTrend(points, TARGET, T, afterWeeks(4) + DAY_MS); // week 4 is not over yet
    expect(trend).toMatchObject({ kind: 'not-enough-data', weeks: 3, currentShare: 0.05, mannKendall: null, flat: false, projectedDate: null, line: [] });
    expect(trend.reason).toBe('Only 3 complete weeks with served traffic; the trend needs at least 4.');
    expect(computeTrend([], TARGET, T, afterWeeks(4)).reason).toBe('Only 0 complete weeks with served traffic; the trend needs at least 4.');
  });

  test('looks only at the last windowWeeks weeks', () => {
    // A steep fall long ago, then flat: inside a 6-week window the share is flat.
    const shares = [0.5, 0.4, 0.3, 0.2, 0.1, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08];
    expect(computeTrend(weeklyPoints(shares), TARGET, { ...T, windowWeeks: 6 }, afterWeeks(11))).toMatchObject({ weeks: 6, flat: true });
    expect(computeTrend(weeklyPoints(shares), TARGET, T, afterWeeks(11))).toMatchObject({ weeks: 11, flat: false, significantDecrease: true });
  });

  test('a week at 0% is floored for the log fit instead of breaking it', () => {
    const trend = fitted(computeTrend(weeklyPoints([0.2, 0.1, 0, 0.025, 0.0125]), 0.001, T, afterWeeks(5)));
    expect(trend.logSlopePerWeek).toBeCloseTo(-Math.LN2, 5);
    expect(trend.projectedDate).not.toBeNull();
  });

  test('a crossing more than 50 years away is no projection, and says why', () => {
    const shares = Array.from({ length: 8 }, (_, i) => 0.3 * Math.exp(-0.001 * i)); // halving every 13 years
    const trend = fitted(computeTrend(weeklyPoints(shares), TARGET, { ...T, flatSlopePerWeek: 0 }, afterWeeks(8)));
    expect(trend).toMatchObject({ significantDecrease: true, projectedDate: null, projection: { kind: 'too-far' } });
    expect(trend.reason).toMatch(/only in 2\d{3}, more than 50 years away/);
  });

  test('a slow decline draws at most five years of line past the data', () => {
    const shares = Array.from({ length: 8 }, (_, i) => 0.3 * Math.exp(-0.01 * i));
    const trend = fitted(computeTrend(weeklyPoints(shares), TARGET, { ...T, flatSlopePerWeek: 0 }, afterWeeks(8)));
    expect(trend.projectedDate).not.toBeNull();
    expect(trend.line).toHaveLength(8 + MAX_EXTENSION_WEEKS);
  });

  test('a fit already below target while the last week is above it projects "now", and says so', () => {
    const trend = fitted(computeTrend(weeklyPoints([0.04, 0.02, 0.01, 0.005, 0.0025, 0.0012, 0.02]), 0.01, T, afterWeeks(7) + DAY_MS));
    expect(trend.projection).toEqual({ kind: 'crossing', date: afterWeeks(7) + DAY_MS, fittedBelowAlready: true });
    expect(trend.reason).toContain('already below the 1.00% target although the last complete week was at 2.00%');
  });

  test('the projected date moves later, or to none, as the decline slows (property)', () => {
    const rates = fc.tuple(fc.double({ min: 1e-3, max: 1, noNaN: true }), fc.double({ min: 1e-3, max: 1, noNaN: true }));
    fc.assert(
      fc.property(rates, fc.double({ min: 0.02, max: 0.9, noNaN: true }), ([a, b], start) => {
        const [fast, slow] = a >= b ? [a, b] : [b, a];
        const project = (rate: number) => computeTrend(weeklyPoints(Array.from({ length: 8 }, (_, i) => start * Math.exp(-rate * i))), TARGET, T, afterWeeks(8)).projectedDate;
        const [early, late] = [project(fast), project(slow)];
        if (early === null) expect(late).toBeNull();
        else if (late !== null) expect(early).toBeLessThanOrEqual(late);
      }),
    );
  });

  test('every share on the line is in [0, 1] (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 0, maxLength: 16 }), fc.double({ min: 0, max: 0.5, noNaN: true }), (shares, target) => {
        const trend = computeTrend(weeklyPoints(shares), target, T, afterWeeks(shares.length));
        for (const point of trend.line) {
          expect(point.share).toBeGreaterThanOrEqual(0);
          expect(point.share).toBeLessThanOrEqual(1);
        }
        if (trend.currentShare !== null) expect(trend.currentShare).toBeLessThanOrEqual(1);
      }),
    );
  });
});
