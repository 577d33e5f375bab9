/**
 * The era state machine's transition function: from a judged answer and the peer's policy to the
 * next step. Pure. The only ways to `initialize` are AMB* with `legacyOnEvidence` (or
 * `allowLegacy`) and AMB with `allowLegacy`; MOD-ERR and STOP never get there, whatever the policy.
 */
import type { PeerPolicy } from '../targets/peer-config.js';
import type { FailedState, ProbeOutcome } from './probe-outcome.js';
import type { ProbedEra } from '../verdict.js';

export interface ProbePhase {
  /** A corrective re-probe was already sent: a second -32022 ends the attempt. */
  corrected: boolean;
  /** The peer showed modern evidence in this attempt: it is never initialized. */
  legacyClosed: boolean;
}

export const FIRST_PHASE: Readonly<ProbePhase> = { corrected: false, legacyClosed: false };

export type NextStep =
  | { kind: 'adopt-modern'; version: string }
  | { kind: 'reprobe'; version: string }
  /** One validated `initialize` offering `offer[0]`, accepting only a version in `offer`. */
  | { kind: 'initialize'; offer: readonly string[]; respawn: boolean }
  | { kind: 'stop'; era: ProbedEra | null; state: FailedState; enableWith: string | null };

export function decideNextStep(outcome: ProbeOutcome, policy: PeerPolicy, phase: ProbePhase, legacyVersions: readonly string[]): NextStep {
  switch (outcome.class) {
    case 'MOD':
      return { kind: 'adopt-modern', version: outcome.version };
    case 'MOD-ERR':
      if (outcome.retryWith !== null && !phase.corrected) return { kind: 'reprobe', version: outcome.retryWith };
      return { kind: 'stop', era: 'modern', state: 'incompatible', enableWith: null };
    case 'STOP':
      return { kind: 'stop', era: null, state: outcome.state, enableWith: null };
    case 'AMB*':
      if (phase.legacyClosed) return { kind: 'stop', era: 'modern', state: 'unavailable', enableWith: null };
      if (policy.legacyOnEvidence || policy.allowLegacy) return { kind: 'initialize', offer: outcome.offer, respawn: false };
      return { kind: 'stop', era: null, state: 'incompatible', enableWith: 'legacyOnEvidence' };
    case 'AMB':
      if (phase.legacyClosed) return { kind: 'stop', era: 'modern', state: 'unavailable', enableWith: null };
      if (policy.allowLegacy) return { kind: 'initialize', offer: legacyVersions, respawn: outcome.deadProcess };
      return { kind: 'stop', era: null, state: outcome.transient ? 'unavailable' : 'incompatible', enableWith: 'allowLegacy' };
  }
}
