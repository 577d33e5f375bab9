import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeStandardNormalCdf } from '../../server/analysis/compute-standard-normal-cdf.js';

describe('computeStandardNormalCdf', () => {
  // Reference values from scipy.stats.norm.cdf.
  test.each([
    { z: -6, p: 9.865876450376946e-10 },
    { z: -3, p: 0.0013498980316300933 },
    { z: -1.96, p: 0.024997895148220435 },
    { z: -1.6448536269514722, p: 0.05 },
    { z: -0.5, p: 0.3085375387259869 },
    { z: 0, p: 0.5 },
    { z: 1, p: 0.8413447460685429 },
    { z: 2.5, p: 0.9937903346742238 },
  ])('Φ($z) = $p to a relative 2e-7', ({ z, p }) => {
    expect(Math.abs(computeStandardNormalCdf(z) - p) / p).toBeLessThan(2e-7);
  });

  test('is monotone and stays within [0, 1] (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const [pl, ph] = [computeStandardNormalCdf(lo), computeStandardNormalCdf(hi)];
        expect(pl).toBeLessThanOrEqual(ph);
        expect(pl).toBeGreaterThanOrEqual(0);
        expect(ph).toBeLessThanOrEqual(1);
      }),
    );
  });

  test('answers NaN for NaN rather than throwing', () => {
    expect(computeStandardNormalCdf(Number.NaN)).toBeNaN();
  });
});
