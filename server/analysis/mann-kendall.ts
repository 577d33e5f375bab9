/**
 * One-sided Mann–Kendall test for a decreasing trend. Pure; depends only on the order of the
 * values, so adding a constant or scaling by a positive factor changes nothing, and reversing the
 * series negates S. Uses the normal approximation with the tie-corrected variance and a
 * continuity-corrected Z (Kendall 1975; Hirsch & Slack 1984).
 */
import { computeStandardNormalCdf } from './compute-standard-normal-cdf.js';

export interface MannKendall {
  /** Σ sign(x_j − x_i) over i < j: negative when later values tend to be smaller. */
  s: number;
  /** Var(S) under H0 with the tie correction. */
  variance: number;
  /** Continuity-corrected standard score; 0 when S is 0. */
  z: number;
  /** P(Z ≤ z): small when the series decreases. */
  pValue: number;
  n: number;
}

/** Tests `values` (in time order) for a decreasing trend; null below 3 finite values. */
export function computeMannKendall(values: readonly number[]): MannKendall | null {
  // Non-finite values carry no order; dropping them keeps the test defined.
  const xs = values.filter((v) => Number.isFinite(v));
  const n = xs.length;
  if (n < 3) return null;

  let s = 0;
  for (let i = 0; i < n - 1; i++) {
    const xi = xs[i] as number;
    for (let j = i + 1; j < n; j++) s += Math.sign((xs[j] as number) - xi);
  }

  const tieSizes = new Map<number, number>();
  for (const x of xs) tieSizes.set(x, (tieSizes.get(x) ?? 0) + 1);
  let tieTerm = 0;
  for (const t of tieSizes.values()) tieTerm += t * (t - 1) * (2 * t + 5);
  const variance = (n * (n - 1) * (2 * n + 5) - tieTerm) / 18;

  // S = 0 (which includes the all-tied case, variance 0) is no evidence either way.
  const z = s === 0 || variance <= 0 ? 0 : (s > 0 ? s - 1 : s + 1) / Math.sqrt(variance);
  return { s, variance, z, pValue: computeStandardNormalCdf(z), n };
}
