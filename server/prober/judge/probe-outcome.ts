/**
 * The judgement of one answer to `server/discover`, in the evidence classes of the verdict (MOD, MOD-ERR, STOP, AMB, AMB*). Pure types.
 * IGN never appears here: ignorable messages are filtered before an answer is judged.
 */
import type { VerdictState } from '../verdict.js';
import type { ServerInfo } from './read-discover-result.js';

export type FailedState = Exclude<VerdictState, 'ready'>;

export interface ProbeContext {
  transport: 'stdio' | 'streamable-http';
  sentId: string | number;
  /** The modern version the probe named. */
  sentVersion: string;
  modernVersions: readonly string[];
  legacyVersions: readonly string[];
  /** Epoch ms, to read an HTTP-date Retry-After. */
  now: number;
}

export type ProbeOutcome =
  /** A DiscoverResult with a mutual modern version. */
  | { class: 'MOD'; code: string; detail: string; version: string; supported: string[]; serverInfo: ServerInfo | null; hasTools: boolean }
  /** A recognised modern rejection; `retryWith` is a mutual modern version to correct to, if any. */
  | { class: 'MOD-ERR'; code: string; detail: string; retryWith: string | null; supported: string[] | null }
  /** Not about eras: auth, transient failure, outage, contradictory or future-only versions. */
  | { class: 'STOP'; code: string; detail: string; state: FailedState; supported: string[] | null; retryAfterMs: number | null }
  /** Recognised legacy-only evidence; `offer` is advertised ∩ configured legacy, best first. */
  | { class: 'AMB*'; code: string; detail: string; offer: string[]; supported: string[] | null }
  /**
   * Ambiguous. `deadProcess`: the stdio process is gone or was killed, so any `initialize` needs a
   * fresh one. `transient`: it may answer later (a slow start), so it is unavailable, not incompatible.
   */
  | { class: 'AMB'; code: string; detail: string; deadProcess: boolean; transient: boolean };

export function stopOutcome(code: string, detail: string, state: FailedState, extra: { supported?: string[] | null; retryAfterMs?: number | null } = {}): ProbeOutcome {
  return { class: 'STOP', code, detail, state, supported: extra.supported ?? null, retryAfterMs: extra.retryAfterMs ?? null };
}

export function ambiguousOutcome(code: string, detail: string, extra: { deadProcess?: boolean; transient?: boolean } = {}): ProbeOutcome {
  return { class: 'AMB', code, detail, deadProcess: extra.deadProcess ?? false, transient: extra.transient ?? false };
}
