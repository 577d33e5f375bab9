/**
 * What counts as served, and as served by the legacy path. Pure. The legacy share is served
 * legacy requests over all served requests (work requests only, by default: see
 * work-request.ts), so these predicates define the curve.
 */
import type { Era, MessageKind, Outcome } from './vocabulary.js';
import { isWorkRequest } from './work-request.js';

/** A request the server answered with a result. */
export function isServed(outcome: Outcome): boolean {
  return outcome === 'served' || outcome === 'served-as-legacy';
}

/**
 * A request the legacy path answered: legacy-era and served, or modern-shaped but answered
 * without resultType (a legacy leg executed it).
 */
export function isLegacyServed(era: Era, outcome: Outcome): boolean {
  return outcome === 'served-as-legacy' || (era === 'legacy' && outcome === 'served');
}

/**
 * Work the legacy path served: what makes a caller a legacy caller. A refused probe or a bare
 * handshake never does, so a client that only asks whether the legacy path is there is not one.
 */
export function isLegacyWorkServed(labels: { era: Era; outcome: Outcome; kind: MessageKind; method: string }): boolean {
  return isWorkRequest(labels.kind, labels.method) && isLegacyServed(labels.era, labels.outcome);
}
