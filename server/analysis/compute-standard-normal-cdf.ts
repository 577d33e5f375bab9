/**
 * The standard normal CDF, Φ(z). Pure; monotone in z and always within [0, 1].
 * Hand-written because simple-statistics offers only a 4-decimal table (p bottoms out at 0.001)
 * and an erf that returns 1 − τ, which rounds small tail probabilities to 0.
 */

/**
 * erfc(x) by the Chebyshev fit of Numerical Recipes (erfcc): fractional error below 1.2e-7
 * everywhere, tails included, so a one-sided p-value keeps its magnitude even far out.
 */
export function computeErfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const poly =
    -1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 +
    t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const tail = t * Math.exp(-x * x + poly);
  return x >= 0 ? tail : 2 - tail;
}

/** P(Z ≤ z) for a standard normal Z. */
export function computeStandardNormalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  return Math.min(1, Math.max(0, 0.5 * computeErfc(-z / Math.SQRT2)));
}
