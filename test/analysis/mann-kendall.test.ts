import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeMannKendall } from '../../server/analysis/mann-kendall.js';

describe('computeMannKendall', () => {
  test('a strictly decreasing run of 5: S = −10, Var = 50/3, continuity-corrected z and its normal tail', () => {
    const mk = computeMannKendall([5, 4, 3, 2, 1])!;
    expect(mk.s).toBe(-10);
    expect(mk.n).toBe(5);
    expect(mk.variance).toBeCloseTo(300 / 18, 12);
    expect(mk.z).toBeCloseTo(-9 / Math.sqrt(300 / 18), 12); // −2.2045
    expect(mk.pValue).toBeCloseTo(0.013743168055755164, 6);
  });

  test('ties shrink the variance: [4, 3, 3, 1] has S = −5 and Var = (4·3·13 − 2·1·9)/18', () => {
    const mk = computeMannKendall([4, 3, 3, 1])!;
    expect(mk.s).toBe(-5);
    expect(mk.variance).toBeCloseTo(138 / 18, 12);
    expect(mk.z).toBeCloseTo(-1.4446302370292303, 10);
    expect(mk.pValue).toBeCloseTo(0.07428088744593432, 6);
  });

  test('a rising series with two tie groups has a large one-sided p: [1, 2, 2, 2, 3, 1]', () => {
    const mk = computeMannKendall([1, 2, 2, 2, 3, 1])!;
    // Ties: three 2s (3·2·11 = 66) and two 1s (2·1·9 = 18); Var = (6·5·17 − 84)/18.
    expect(mk).toMatchObject({ s: 3, n: 6 });
    expect(mk.variance).toBeCloseTo(426 / 18, 12);
    expect(mk.z).toBeCloseTo(2 / Math.sqrt(426 / 18), 12);
    expect(mk.pValue).toBeCloseTo(0.6595052438213878, 6);
  });

  test('a constant series is no evidence: S = 0, Var = 0, z = 0, p = 0.5', () => {
    expect(computeMannKendall([2, 2, 2, 2])).toEqual({ s: 0, variance: 0, z: 0, pValue: 0.5, n: 4 });
  });

  test('answers null below three finite values, and drops non-finite ones', () => {
    expect(computeMannKendall([])).toBeNull();
    expect(computeMannKendall([1, 2])).toBeNull();
    expect(computeMannKendall([1, Number.NaN, 2])).toBeNull();
    expect(computeMannKendall([3, Number.NaN, 2, Infinity, 1])).toMatchObject({ s: -3, n: 3 });
  });

  test('a long strictly decreasing series keeps a tiny but non-zero p', () => {
    const mk = computeMannKendall(Array.from({ length: 60 }, (_, i) => -i))!;
    expect(mk.z).toBeLessThan(-10);
    expect(mk.pValue).toBeGreaterThan(0);
    expect(mk.pValue).toBeLessThan(1e-20);
  });

  const series = fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 3, maxLength: 25 });

  test('reversing the series negates S and z and keeps the variance (property)', () => {
    fc.assert(
      fc.property(series, (xs) => {
        const forward = computeMannKendall(xs)!;
        const backward = computeMannKendall([...xs].reverse())!;
        expect(backward.s + forward.s).toBe(0);
        expect(backward.variance).toBe(forward.variance);
        expect(backward.z + forward.z).toBeCloseTo(0, 12);
        expect(backward.pValue + forward.pValue).toBeCloseTo(1, 12);
      }),
    );
  });

  test('adding a constant or scaling by a positive factor leaves S, z and p unchanged (property)', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 }), (xs, shift, scale) => {
        const base = computeMannKendall(xs)!;
        for (const moved of [xs.map((x) => x + shift), xs.map((x) => x * scale), xs.map((x) => (x + shift) * scale)]) {
          const mk = computeMannKendall(moved)!;
          expect([mk.s, mk.variance, mk.z, mk.pValue]).toEqual([base.s, base.variance, base.z, base.pValue]);
        }
      }),
    );
  });

  test('a strictly decreasing series has the smallest p of all orderings of its values (property)', () => {
    const ordering = fc.integer({ min: 3, max: 14 }).chain((n) => {
      const values = Array.from({ length: n }, (_, i) => i);
      return fc.shuffledSubarray(values, { minLength: n, maxLength: n });
    });
    fc.assert(
      fc.property(ordering, (perm) => {
        const decreasing = computeMannKendall([...perm].sort((a, b) => b - a))!;
        const shuffled = computeMannKendall(perm)!;
        expect(decreasing.s).toBe(-(perm.length * (perm.length - 1)) / 2);
        expect(shuffled.pValue).toBeGreaterThanOrEqual(decreasing.pValue);
      }),
    );
  });

  test('p never falls as S grows, for a fixed length without ties (|S| = 1 is z = 0 after continuity correction) (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 12 }).chain((n) => fc.tuple(fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }), fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }))), ([a, b]) => {
        const [ma, mb] = [computeMannKendall(a)!, computeMannKendall(b)!];
        if (ma.s < mb.s) expect(ma.pValue).toBeLessThanOrEqual(mb.pValue);
        if (ma.s < mb.s && mb.s > 1) expect(ma.pValue).toBeLessThan(mb.pValue);
        if (ma.s === mb.s) expect(ma.pValue).toBe(mb.pValue);
      }),
    );
  });
});
