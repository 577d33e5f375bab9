/**
 * Is the in-scope share falling, is it flat, and when will it reach the target? Pure.
 * Works on complete ISO weeks only: every week holds each weekday once, so weekday seasonality
 * (legacy-heavy weekends, say) cancels inside each point instead of looking like a trend.
 * Invariant: a Trend with `kind: 'not-enough-data'` carries no test, no projection and flat false.
 */
import type { SharePoint } from './compute-share-series.js';
import { WEEK_MS } from './compute-week-start.js';
import { formatDay, formatPercent, formatPointsPerWeek, formatYear } from './format-numbers.js';
import { computeMannKendall, type MannKendall } from './mann-kendall.js';
import { projectShareCrossing, type TrendLinePoint, type WeeklyShare } from './project-share-crossing.js';
import { computeTheilSen } from './theil-sen.js';

export interface TrendThresholds {
  /** How many of the latest complete weeks with traffic the trend looks at. */
  windowWeeks: number;
  /** Fewer weeks than this is "not enough data"; never below 3, the least Mann–Kendall can test. */
  minPoints: number;
  /** Mann–Kendall significance level for "the share is decreasing". */
  alpha: number;
  /** |Theil–Sen slope| below this (share units per week) counts as flat: 0.001 = 0.1 pp/week. */
  flatSlopePerWeek: number;
  /** A projection this many days past the retire date is at risk, further is off track. */
  atRiskDays: number;
}

export const DEFAULT_TREND_THRESHOLDS: Readonly<TrendThresholds> = Object.freeze({
  windowWeeks: 12,
  minPoints: 4,
  alpha: 0.05,
  flatSlopePerWeek: 0.001,
  atRiskDays: 14,
});

export type TrendProjection =
  | { kind: 'reached'; date: number } // the share is at or below target; date = start of that run of weeks
  | { kind: 'crossing'; date: number; fittedBelowAlready: boolean }
  | { kind: 'flat' }
  | { kind: 'not-falling' } // fitted log-slope ≥ 0
  | { kind: 'too-far'; date: number }; // more than 50 years out

interface TrendCommon {
  /** Complete weeks with served traffic that the trend used. */
  weeks: number;
  /** What the trend says, in a sentence; for "not enough data", why. */
  reason: string;
  /**
   * The fitted curve at each used week start, then weekly to the crossing. It is the share at
   * Monday 00:00, so on a falling curve it sits half a week's decline above the weekly averages.
   */
  line: TrendLinePoint[];
}

export type Trend =
  | (TrendCommon & {
      kind: 'not-enough-data';
      currentShare: number | null;
      mannKendall: null;
      significantDecrease: false;
      slopePerWeek: null;
      logSlopePerWeek: null;
      flat: false;
      projection: null;
      projectedDate: null;
    })
  | (TrendCommon & {
      kind: 'fitted';
      /** The share of the last week used. */
      currentShare: number;
      mannKendall: MannKendall;
      significantDecrease: boolean;
      /** Theil–Sen slope of the share, share units per week. */
      slopePerWeek: number;
      /** Theil–Sen slope of ln(share) per week: −ln 2 / half-life in weeks. */
      logSlopePerWeek: number | null;
      flat: boolean;
      projection: TrendProjection;
      projectedDate: number | null;
    });

/** Fits the trend of `weekly` points toward `target` as of `now`. */
export function computeTrend(weekly: readonly SharePoint[], target: number, thresholds: TrendThresholds, now: number): Trend {
  const weeks: WeeklyShare[] = weekly
    .filter((p) => p.start + WEEK_MS <= now && p.served > 0 && p.share !== null && Number.isFinite(p.share))
    .map((p) => ({ start: p.start, share: p.share as number }))
    .sort((a, b) => a.start - b.start)
    .slice(-Math.max(1, Math.floor(thresholds.windowWeeks)));
  const minPoints = Math.max(3, thresholds.minPoints);
  const mannKendall = computeMannKendall(weeks.map((w) => w.share));
  const linear = computeTheilSen(weeks.map((w) => (w.start - (weeks[0]?.start ?? 0)) / WEEK_MS), weeks.map((w) => w.share));
  const last = weeks[weeks.length - 1];
  if (weeks.length < minPoints || mannKendall === null || linear === null || last === undefined) {
    const have = `${weeks.length} complete week${weeks.length === 1 ? '' : 's'}`;
    return {
      kind: 'not-enough-data', weeks: weeks.length, currentShare: last?.share ?? null, mannKendall: null, significantDecrease: false,
      slopePerWeek: null, logSlopePerWeek: null, flat: false, projection: null, projectedDate: null, line: [],
      reason: `Only ${have} with served traffic; the trend needs at least ${minPoints}.`,
    };
  }

  const currentShare = last.share;
  const significantDecrease = mannKendall.pValue < thresholds.alpha;
  const slopePerWeek = linear.slope;
  const flat = !significantDecrease && Math.abs(slopePerWeek) < thresholds.flatSlopePerWeek && currentShare > target;
  const crossing = projectShareCrossing(weeks, target, now);
  const fitted = { kind: 'fitted' as const, weeks: weeks.length, currentShare, mannKendall, significantDecrease, slopePerWeek, logSlopePerWeek: crossing.logFit?.slope ?? null, flat };

  if (currentShare <= target) {
    // The date the share went below target and stayed there.
    let first = weeks.length - 1;
    while (first > 0 && (weeks[first - 1]?.share ?? Infinity) <= target) first--;
    const date = weeks[first]?.start ?? now;
    const reason = `The share has been at or below the ${formatPercent(target)} target since the week of ${formatDay(date)}.`;
    return { ...fitted, projection: { kind: 'reached', date }, projectedDate: date, reason, line: crossing.line };
  }
  if (flat) {
    const reason = `The share is flat (no significant decrease, ${formatPointsPerWeek(slopePerWeek)}), so there is no date it reaches the ${formatPercent(target)} target.`;
    return { ...fitted, projection: { kind: 'flat' }, projectedDate: null, reason, line: crossing.line };
  }
  const projection = crossing.projection;
  const halving = crossing.logFit !== null && crossing.logFit.slope < 0 ? `halving every ${(Math.LN2 / -crossing.logFit.slope).toFixed(1)} weeks` : '';
  if (projection.kind === 'not-falling') {
    const reason = `The share is not falling (its fitted log-slope is ≥ 0), so there is no date it reaches the ${formatPercent(target)} target.`;
    return { ...fitted, projection, projectedDate: null, reason, line: crossing.line };
  }
  if (projection.kind === 'too-far') {
    const reason = `At the fitted rate (${halving}) the ${formatPercent(target)} target would be reached only in ${formatYear(projection.date)}, more than 50 years away.`;
    return { ...fitted, projection, projectedDate: null, reason, line: crossing.line };
  }
  const reason = projection.fittedBelowAlready
    ? `The fitted decline (${halving}) is already below the ${formatPercent(target)} target although the last complete week was at ${formatPercent(currentShare)}; expected now.`
    : `The fitted decline (${halving}) reaches the ${formatPercent(target)} target on ${formatDay(projection.date)}.`;
  return { ...fitted, projection, projectedDate: projection.date, reason, line: [...crossing.line, ...crossing.extension] };
}
