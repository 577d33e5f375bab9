/**
 * Will the plan's scope reach its target share by the retire date? Pure.
 * Invariant: the status follows from the share, the trend and the dates alone, in this order:
 * met, unknown, then on-track / at-risk / off-track by the projection; `reason` states the numbers.
 */
import { DAY_MS } from './compute-week-start.js';
import type { Trend, TrendThresholds } from './compute-trend.js';
import { formatDay, formatPercent, formatPointsPerWeek, formatPValue, formatYear } from './format-numbers.js';

export interface RetirementPlan {
  retireDate: number;
  announceDate: number;
  targetShare: number;
  /** Whose share the sentences talk about, e.g. "Legacy" (the default) or "http+sse". */
  label?: string;
}

export type PlanStatusKind = 'met' | 'on-track' | 'at-risk' | 'off-track' | 'unknown';

export interface PlanStatus {
  status: PlanStatusKind;
  reason: string;
  projectedDate: number | null;
  /** Whole days from `now` to the retire date, rounded up; negative once it has passed. */
  daysToRetire: number;
}

/** Inside this many days of the retire date, a decline that is not yet significant is a risk. */
export const RETIRE_SOON_DAYS = 30;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "falling (Mann–Kendall p = 0.003, −0.85 pp/week)" */
function describeDirection(trend: Extract<Trend, { kind: 'fitted' }>): string {
  const numbers = `(Mann–Kendall ${formatPValue(trend.mannKendall.pValue)}, ${formatPointsPerWeek(trend.slopePerWeek)})`;
  if (trend.significantDecrease) return `falling ${numbers}`;
  if (trend.flat) return `flat ${numbers}`;
  if (trend.slopePerWeek > 0) return `rising ${numbers}`;
  return `drifting, with no significant decline yet ${numbers}`;
}

/**
 * Judges `plan` against `trend` (computed with the same target) as of `now`. `currentShare` is
 * the latest share the caller shows (it may be a week still in progress); without one, the last
 * complete week's share stands in.
 */
export function computePlanStatus(plan: RetirementPlan, trend: Trend, currentShare: number | null, now: number, thresholds: TrendThresholds): PlanStatus {
  const daysToRetire = Math.ceil((plan.retireDate - now) / DAY_MS);
  const share = currentShare ?? trend.currentShare;
  const subject = `${plan.label ?? 'Legacy'} share`;
  const target = `the ${formatPercent(plan.targetShare)} target`;
  const retire = `the retire date ${formatDay(plan.retireDate)}`;
  const result = (status: PlanStatusKind, reason: string, projectedDate: number | null = null): PlanStatus => ({ status, reason, projectedDate, daysToRetire });

  if (share !== null && share <= plan.targetShare) {
    const when = daysToRetire >= 0 ? `${plural(daysToRetire, 'day')} before ${retire}` : `${plural(-daysToRetire, 'day')} after ${retire}`;
    const reachedOn = trend.projection?.kind === 'reached' ? trend.projection.date : now;
    return result('met', `${subject} is ${formatPercent(share)}, at or below ${target}, ${when}.`, reachedOn);
  }
  if (trend.kind === 'not-enough-data') {
    const where = share === null ? `${subject} has no served traffic yet` : `${subject} is ${formatPercent(share)}`;
    const needed = Math.max(3, thresholds.minPoints);
    return result('unknown', `${where}; with ${plural(trend.weeks, 'complete week')} of traffic and at least ${needed} needed, there is no trend yet to judge against ${target} by ${retire}.`);
  }

  const head = `${subject} is ${formatPercent(share ?? trend.currentShare)} and ${describeDirection(trend)}`;
  const projection = trend.projection;
  if (trend.projectedDate === null) {
    const why =
      projection.kind === 'too-far'
        ? `at this rate it would reach ${target} only in ${formatYear(projection.date)}, long after ${retire}`
        : `at this rate it will not reach ${target} by ${retire}`;
    return result('off-track', `${head}; ${why}.`);
  }

  const projected = trend.projectedDate;
  const lateDays = Math.ceil((projected - plan.retireDate) / DAY_MS);
  const reaches = `at this rate it reaches ${target} on ${formatDay(projected)}`;
  if (projected <= plan.retireDate) {
    if (!trend.significantDecrease && daysToRetire <= RETIRE_SOON_DAYS) {
      return result('at-risk', `${head}; ${reaches}, but with ${retire} ${plural(daysToRetire, 'day')} away the decline is not yet statistically significant.`, projected);
    }
    return result('on-track', `${head}; ${reaches}, ${plural(Math.floor((plan.retireDate - projected) / DAY_MS), 'day')} before ${retire}.`, projected);
  }
  const status = lateDays <= thresholds.atRiskDays ? 'at-risk' : 'off-track';
  return result(status, `${head}; ${reaches}, ${plural(lateDays, 'day')} after ${retire}.`, projected);
}
