/**
 * The standard normal CDF, Φ(z). Pure; continuous, monotone in z, Φ(0) = 0.5, always in [0, 1].
 * Hand-written because simple-statistics offers only a 4-decimal table (p bottoms out at 0.001)
 * and an erf that returns 1 − τ, which rounds small tail probabilities to 0.
 */

/** The Numerical Recipes (erfcc) Chebyshev fit of erfc(x) for x ≥ 0: fractional error < 1.2e-7, tails included. */
function computeErfcTail(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 +
    t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(-x * x + poly);
}

// The fit gives erfc(0) = 1 + 3e-8; dividing it out makes Φ exactly 0.5 at 0, so the two halves
// below meet there and Φ stays monotone (a p-value must not jump as z crosses 0).
const ERFC_AT_ZERO = computeErfcTail(0);

/** P(Z ≤ z) for a standard normal Z. */
export function computeStandardNormalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const lowerTail = Math.min(0.5, (0.5 * computeErfcTail(Math.abs(z) / Math.SQRT2)) / ERFC_AT_ZERO);
  return z <= 0 ? lowerTail : 1 - lowerTail;
}
