/**
 * A plan's dates as the instants they take effect. Pure.
 * Invariant: a plan date (YYYY-MM-DD) takes effect at 00:00 UTC that day; an exemption's `until` is
 * the last day it holds, so it lapses at 00:00 UTC the day after.
 */
import { DAY_MS } from './compute-week-start.js';

export interface PlanDates {
  announceDate: string;
  retireDate: string;
  blockNewCallersFrom: string | null;
  gate: { backstopDate: string } | null;
}

export interface PlanClock {
  /** The Deprecation date: announcement headers from here on. */
  announceAt: number;
  /** The Sunset date: the cut, unless a gate holds it. */
  retireAt: number;
  /** From here on, callers with no served work in scope before are refused; null without a date. */
  blockNewAt: number | null;
  /** The gate's backstop: no wait goes past it; null without a gate. */
  backstopAt: number | null;
}

/** A plan date as the UTC midnight it starts. */
export function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** When an exemption whose last day is `until` lapses. */
export function exemptionEndsAt(until: string): number {
  return dayStart(until) + DAY_MS;
}

export function planClock(plan: PlanDates): PlanClock {
  return {
    announceAt: dayStart(plan.announceDate),
    retireAt: dayStart(plan.retireDate),
    blockNewAt: plan.blockNewCallersFrom === null ? null : dayStart(plan.blockNewCallersFrom),
    backstopAt: plan.gate === null ? null : dayStart(plan.gate.backstopDate),
  };
}
