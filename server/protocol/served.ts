/**
 * What counts as served, and as served by the legacy path. Pure. The legacy share is served
 * legacy requests over all served requests, so these two predicates define the curve.
 */
import type { Era, Outcome } from './vocabulary.js';

/** A request the server answered with a result. */
export function isServed(outcome: Outcome | string): boolean {
  return outcome === 'served' || outcome === 'served-as-legacy';
}

/**
 * A request the legacy path answered: legacy-era and served, or modern-shaped but answered
 * without resultType (a legacy leg executed it).
 */
export function isLegacyServed(era: Era | string, outcome: Outcome | string): boolean {
  return outcome === 'served-as-legacy' || (era === 'legacy' && outcome === 'served');
}
