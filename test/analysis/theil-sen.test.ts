import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeMedian, computeTheilSen } from '../../server/analysis/theil-sen.js';

function near(a: number, b: number, scale: number): boolean {
  return Math.abs(a - b) <= 1e-9 * (1 + scale);
}

describe('computeMedian', () => {
  test('answers the middle value, the mean of the middle two, or NaN for none', () => {
    expect(computeMedian([3, 1, 2])).toBe(2);
    expect(computeMedian([4, 1, 3, 2])).toBe(2.5);
    expect(computeMedian([Number.NaN, 5])).toBe(5);
    expect(computeMedian([])).toBeNaN();
  });
});

describe('computeTheilSen', () => {
  test('is exact on a straight line', () => {
    expect(computeTheilSen([0, 1, 2, 3, 4, 5], [3, 1, -1, -3, -5, -7])).toEqual({ slope: -2, intercept: 3 });
  });

  test('ignores outliers that a least-squares fit would follow', () => {
    const xs = Array.from({ length: 10 }, (_, i) => i);
    const ys = xs.map((x) => 1 + 0.5 * x);
    ys[3] = 100;
    ys[7] = -50;
    expect(computeTheilSen(xs, ys)).toEqual({ slope: 0.5, intercept: 1 });
  });

  test('answers null when no two points differ in x, and fits only the pairs both arrays have', () => {
    expect(computeTheilSen([], [])).toBeNull();
    expect(computeTheilSen([1], [1])).toBeNull();
    expect(computeTheilSen([2, 2, 2], [1, 5, 9])).toBeNull();
    expect(computeTheilSen([0, 1, 2, 3], [1, 2, 3])).toEqual({ slope: 1, intercept: 1 });
    expect(computeTheilSen([0, 1, Number.NaN, 2], [0, 2, 7, 4])).toEqual({ slope: 2, intercept: 0 });
  });

  // Millesimal coordinates: denormal doubles would collapse distinct xs when translated.
  const coordinate = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((v) => v / 1000);
  const cloud = fc.array(fc.tuple(coordinate, coordinate), { minLength: 2, maxLength: 15 }).filter((ps) => new Set(ps.map(([x]) => x)).size > 1);

  test('recovers every line exactly through distinct integer xs (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -100, max: 100 }), { minLength: 2, maxLength: 15 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), (xs, a, b) => {
        expect(computeTheilSen(xs, xs.map((x) => a + b * x))).toEqual({ slope: b, intercept: a });
      }),
    );
  });

  test('is equivariant under translating and scaling y and translating x (property)', () => {
    fc.assert(
      fc.property(cloud, coordinate, fc.double({ min: 0.01, max: 100, noNaN: true }), coordinate, (points, c, k, d) => {
        const xs = points.map(([x]) => x);
        const ys = points.map(([, y]) => y);
        const fit = computeTheilSen(xs, ys)!;
        const scale = 1e3 * (Math.abs(fit.slope) + Math.abs(fit.intercept) + Math.abs(c) + 1000);

        const shiftedY = computeTheilSen(xs, ys.map((y) => y + c))!;
        expect(near(shiftedY.slope, fit.slope, scale)).toBe(true);
        expect(near(shiftedY.intercept, fit.intercept + c, scale)).toBe(true);

        const scaledY = computeTheilSen(xs, ys.map((y) => y * k))!;
        expect(near(scaledY.slope, fit.slope * k, scale * k)).toBe(true);
        expect(near(scaledY.intercept, fit.intercept * k, scale * k)).toBe(true);

        const shiftedX = computeTheilSen(xs.map((x) => x + d), ys)!;
        expect(near(shiftedX.slope, fit.slope, scale)).toBe(true);
        expect(near(shiftedX.intercept, fit.intercept - fit.slope * d, scale * (1 + Math.abs(d)))).toBe(true);
      }),
    );
  });
});
