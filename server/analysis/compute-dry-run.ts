/**
 * "Who breaks if we cut on date D?", answered from stored counts. Pure.
 * Invariant: a cut refuses every request in the plan's scope except an exempt caller's; so a caller
 * with served work in scope in the window is refused on D unless an exemption's `until` reaches D,
 * and the refused share is the non-exempt callers' in-scope served work over all served work.
 */
import type { MigrationState } from './migration-state.js';
import { bucketStart } from '../lib/time-bucket.js';
import { DAY_MS } from './compute-week-start.js';
import { dayStart, exemptionEndsAt } from './plan-clock.js';

/** The counts a report reads: the `quietDays` UTC days up to min(D, now), today's counts so far included. */
export interface DryRunWindow {
  from: number;
  to: number;
  /** The window's length in days: fractional when it ends at `now`, in the middle of a day. */
  days: number;
}

/** One caller's served work requests in the plan's scope over the window. */
export interface DryRunCallerRow {
  integration: string;
  requests: number;
  /** The start of the last UTC day with served work in scope. */
  lastSeen: number;
  versions: readonly string[];
  transports: readonly string[];
  /** How many of `requests` a plan in dry run marked as would-block. */
  wouldBlock: number;
}

/** What the integrations registry knows of a caller. */
export interface DryRunCallerFacts {
  identifiable: boolean;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  /** Whether it has started to move, over the same window (migration-state.ts). */
  migration: MigrationState | null;
  /** What it was told: this plan's notices delivered to it, the last one's time, and the last contact made by hand. */
  told: { notices: number; lastNoticeAt: number | null; lastContactAt: number | null };
  /** The distinct people it served work in scope in the window; null when no credential of its named people. */
  people: number | null;
}

export interface DryRunInputs {
  /** The cut date asked about, YYYY-MM-DD. */
  at: string;
  window: DryRunWindow;
  callers: readonly DryRunCallerRow[];
  facts: (integration: string) => DryRunCallerFacts;
  exemptions: readonly { integration: string; until: string; note: string | null }[];
  /** Every served work request in the window, in scope or not. */
  servedRequests: number;
  /** True when the plan is in dry run, so its live would-block counts mean something. */
  live: boolean;
  /**
   * The distinct people behind the callers a cut would refuse (one person behind two refused callers
   * counts once): the store counts them over the callers `savedOn` does not save.
   */
  refusedPeople: number;
}

export interface DryRunCaller extends DryRunCallerFacts {
  integration: string;
  requests: number;
  requestsPerDay: number;
  lastSeen: number;
  versions: string[];
  transports: string[];
  /** The exemption that lets this caller through on D; null: it is refused. */
  savedBy: { until: string; note: string | null } | null;
}

export interface DryRun {
  at: string;
  window: DryRunWindow;
  /** Share of served work requests that would be refused; null when nothing was served. */
  refusedShare: number | null;
  totals: { callers: number; refusedCallers: number; savedCallers: number; refusedRequests: number; servedRequests: number; refusedPeople: number };
  /** Identifiable callers first, then by requests, most first. */
  callers: DryRunCaller[];
  /** The would-block counts the sidecar recorded for the same callers and window; null unless in dry run. */
  live: { wouldBlock: number; byCaller: Map<string, number> } | null;
}

/**
 * The window a report on `at` reads: the `quietDays` UTC days ending with the day that holds
 * min(D, now), that day itself left out when the end is its midnight (a cut on D sees nothing of D).
 */
export function computeDryRunWindow(at: string, quietDays: number, now: number): DryRunWindow {
  const to = Math.min(dayStart(at), now);
  const endDay = bucketStart(to, 'day') === to ? to : bucketStart(to, 'day') + DAY_MS;
  const from = endDay - quietDays * DAY_MS;
  return { from, to, days: (to - from) / DAY_MS };
}

/** The exemption covering `at` for a caller, the one lasting longest when several do. */
function exemptionOn(at: string, integration: string, exemptions: DryRunInputs['exemptions']): DryRunCaller['savedBy'] {
  const covering = exemptions.filter((e) => e.integration === integration && exemptionEndsAt(e.until) > dayStart(at));
  const longest = covering.sort((a, b) => b.until.localeCompare(a.until))[0];
  return longest === undefined ? null : { until: longest.until, note: longest.note };
}

/** The callers an exemption lets through on `at`: a cut refuses every other caller in scope. */
export function savedOn(at: string, integrations: readonly string[], exemptions: DryRunInputs['exemptions']): string[] {
  return integrations.filter((integration) => exemptionOn(at, integration, exemptions) !== null);
}

export function computeDryRun(inputs: DryRunInputs): DryRun {
  const { window } = inputs;
  const callers = inputs.callers
    .filter((row) => row.requests > 0)
    .map(
      (row): DryRunCaller => ({
        integration: row.integration,
        ...inputs.facts(row.integration),
        requests: row.requests,
        requestsPerDay: window.days > 0 ? row.requests / window.days : 0,
        lastSeen: row.lastSeen,
        versions: [...row.versions].sort(),
        transports: [...row.transports].sort(),
        savedBy: exemptionOn(inputs.at, row.integration, inputs.exemptions),
      }),
    )
    .sort((a, b) => Number(b.identifiable) - Number(a.identifiable) || b.requests - a.requests || a.integration.localeCompare(b.integration));
  const refused = callers.filter((c) => c.savedBy === null);
  const refusedRequests = refused.reduce((sum, c) => sum + c.requests, 0);
  const listed = new Set(callers.map((c) => c.integration));
  const wouldBlock = inputs.callers.filter((row) => listed.has(row.integration));
  return {
    at: inputs.at,
    window,
    refusedShare: inputs.servedRequests > 0 ? refusedRequests / inputs.servedRequests : null,
    totals: {
      callers: callers.length,
      refusedCallers: refused.length,
      savedCallers: callers.length - refused.length,
      refusedRequests,
      servedRequests: inputs.servedRequests,
      refusedPeople: inputs.refusedPeople,
    },
    callers,
    live: inputs.live
      ? { wouldBlock: wouldBlock.reduce((sum, row) => sum + row.wouldBlock, 0), byCaller: new Map(wouldBlock.map((row) => [row.integration, row.wouldBlock])) }
      : null,
  };
}
