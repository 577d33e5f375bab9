import type { MigrationState } from '../analysis/migration-state.js';

/**
 * GET /plans/:id/dry-run: who a cut of the plan's scope on `at` would refuse, from the stored counts
 * of its quiet days up to min(at, now). The dashboard reads exactly these names.
 */
export interface DryRunJson {
  planId: number;
  /** YYYY-MM-DD, the cut date asked about. */
  at: string;
  /** ISO times of the counts used; `days` is the window's length, fractional when it ends now. */
  window: { from: string; to: string; days: number };
  /** Share of served work requests that would be refused; null when nothing was served. */
  refusedShare: number | null;
  /** `refusedPeople`: the distinct people behind the refused callers (one behind two callers counts once), as verified credentials named them. */
  totals: { callers: number; refusedCallers: number; savedCallers: number; refusedRequests: number; servedRequests: number; refusedPeople: number };
  /** Identifiable callers first, then by requests, most first. */
  callers: DryRunCallerJson[];
  /** The would-block counts recorded for the same callers and window; only for a plan in dryrun. */
  live: { wouldBlock: number; byCaller: Record<string, number> } | null;
}

export interface DryRunCallerJson {
  integration: string;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  identifiable: boolean;
  /** Served work requests in scope in the window. */
  requests: number;
  requestsPerDay: number;
  /** ISO: the start of the last UTC day with served work in scope. */
  lastSeen: string | null;
  versions: string[];
  transports: string[];
  /** Whether it has started to move, over the same window: `migrating` was served modern work beside its legacy work. */
  migration: MigrationState | null;
  /** What it was told: this plan's notices delivered to it, the last one's time, and the last contact made by hand (ISO). */
  told: { notices: number; lastNoticeAt: string | null; lastContactAt: string | null };
  /** The exemption covering `at`, if any: the caller would pass. */
  savedBy: { until: string; note: string | null } | null;
  /** The distinct people it served work in scope in the window; null when no credential of its named people. */
  people: number | null;
}
