/**
 * Theil–Sen line fit: slope = median of pairwise slopes, intercept = median of y − slope·x. Pure.
 * Exact on a straight line and robust to outliers (breakdown point ≈ 29%). The estimator is
 * ml-regression-theil-sen's; this file only keeps its input clean and its answer total.
 */
import { TheilSenRegression } from 'ml-regression-theil-sen';

export interface TheilSen {
  slope: number;
  intercept: number;
}

/** The median of finite numbers; NaN for none. Sorts a copy. */
export function computeMedian(values: readonly number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Fits y ≈ intercept + slope·x. Pairs with a non-finite coordinate are ignored; answers null when
 * no two points differ in x (no slope is defined) — cases the library would throw on or answer NaN.
 */
export function computeTheilSen(xs: readonly number[], ys: readonly number[]): TheilSen | null {
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    if (Number.isFinite(xs[i]) && Number.isFinite(ys[i])) {
      x.push(xs[i] as number);
      y.push(ys[i] as number);
    }
  }
  if (new Set(x).size < 2) return null;
  const { slope, intercept } = new TheilSenRegression(x, y);
  // `+ 0` turns −0 (a flat fit through a falling x) into 0.
  return Number.isFinite(slope) && Number.isFinite(intercept) ? { slope: slope + 0, intercept: intercept + 0 } : null;
}
