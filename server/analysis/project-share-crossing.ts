/**
 * When does a falling share reach its target? Fits ln(share) against time with Theil–Sen
 * (shares fall roughly exponentially, so the log is close to a line) and solves for the crossing.
 * Pure. Invariant: every share on the returned line is in [0, 1]; a date is returned only when
 * the fitted log-slope is negative and the crossing is less than 50 years away.
 */
import { DAY_MS, WEEK_MS } from './compute-week-start.js';
import { computeTheilSen, type TheilSen } from './theil-sen.js';

/**
 * Stand-in for a share of 0, whose log is −∞. One request in a million sits below any target a
 * plan publishes, and Theil–Sen's medians keep a lone zero week from dragging the fit. A target
 * at or below it is treated as reaching it.
 */
export const SHARE_FLOOR = 1e-6;
export const MAX_PROJECTION_MS = 50 * 365.25 * DAY_MS;
/** Five years of weekly points is more than any chart shows usefully. */
export const MAX_EXTENSION_WEEKS = 260;

export interface WeeklyShare {
  start: number;
  share: number;
}

export interface TrendLinePoint {
  start: number;
  share: number;
}

export type CrossingProjection =
  | { kind: 'crossing'; date: number; fittedBelowAlready: boolean }
  | { kind: 'not-falling' }
  | { kind: 'too-far'; date: number };

export interface ShareCrossing {
  /** Fit of ln(share) in weeks since the first week's midpoint. */
  logFit: TheilSen | null;
  projection: CrossingProjection;
  /** The fitted curve at each week start given. */
  line: TrendLinePoint[];
  /** The fitted curve weekly after the last week, up to the crossing (empty without one). */
  extension: TrendLinePoint[];
}

/**
 * A weekly share is the average over its week, so it is placed at the week's midpoint: fitting at
 * the week start would put every projected date half a week early.
 */
function weeksFrom(origin: number, at: number): number {
  return (at - origin) / WEEK_MS;
}

/** Projects `weeks` (complete, in time order, at least two) down to `target`. */
export function projectShareCrossing(weeks: readonly WeeklyShare[], target: number, now: number): ShareCrossing {
  const origin = (weeks[0]?.start ?? now) + WEEK_MS / 2;
  const logFit = computeTheilSen(
    weeks.map((w) => weeksFrom(origin, w.start + WEEK_MS / 2)),
    weeks.map((w) => Math.log(Math.max(w.share, SHARE_FLOOR))),
  );
  const fitted = (at: number): number => (logFit === null ? Number.NaN : Math.min(1, Math.exp(logFit.intercept + logFit.slope * weeksFrom(origin, at))));
  const line = logFit === null ? [] : weeks.map((w) => ({ start: w.start, share: fitted(w.start) }));

  const none = (projection: CrossingProjection): ShareCrossing => ({ logFit, projection, line, extension: [] });
  if (logFit === null || logFit.slope >= 0) return none({ kind: 'not-falling' });
  const crossingWeeks = (Math.log(Math.max(target, SHARE_FLOOR)) - logFit.intercept) / logFit.slope;
  const date = origin + crossingWeeks * WEEK_MS;
  if (!Number.isFinite(date)) return none({ kind: 'not-falling' });
  if (date - now > MAX_PROJECTION_MS) return none({ kind: 'too-far', date });

  // The fitted curve can dip below the target while the last week is still above it (noise around
  // the fit); the honest date is then "now", and the flag lets the reason say so.
  const fittedBelowAlready = date < now;
  const projected = fittedBelowAlready ? now : date;
  const extension: TrendLinePoint[] = [];
  let start = weeks[weeks.length - 1]?.start ?? now;
  while (start < projected && extension.length < MAX_EXTENSION_WEEKS) {
    start += WEEK_MS;
    extension.push({ start, share: fitted(start) });
  }
  return { logFit, projection: { kind: 'crossing', date: projected, fittedBelowAlready }, line, extension };
}
