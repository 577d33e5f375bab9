/**
 * Theil–Sen line fit: slope = median of pairwise slopes, intercept = median of y − slope·x. Pure.
 * Exact on a straight line and robust to outliers (breakdown point ≈ 29%). Hand-written instead of
 * ml-regression-theil-sen@3: that package is CommonJS without types and throws on bad input.
 */

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
 * no two points differ in x (no slope is defined).
 */
export function computeTheilSen(xs: readonly number[], ys: readonly number[]): TheilSen | null {
  const points: [number, number][] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i] as number;
    const y = ys[i] as number;
    if (Number.isFinite(x) && Number.isFinite(y)) points.push([x, y]);
  }
  const slopes: number[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const [xi, yi] = points[i] as [number, number];
    for (let j = i + 1; j < points.length; j++) {
      const [xj, yj] = points[j] as [number, number];
      if (xj !== xi) slopes.push((yj - yi) / (xj - xi));
    }
  }
  const slope = computeMedian(slopes);
  if (!Number.isFinite(slope)) return null;
  const intercept = computeMedian(points.map(([x, y]) => y - slope * x));
  // `+ 0` turns −0 (a flat fit through a falling x) into 0.
  return Number.isFinite(intercept) ? { slope: slope + 0, intercept: intercept + 0 } : null;
}
