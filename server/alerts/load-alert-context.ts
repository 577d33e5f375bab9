import { loadCallerRecords } from '../views/load-caller-records.js';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import { DAY_MS } from '../analysis/compute-week-start.js';
import { summarizeScope } from '../analysis/plan-scope.js';
import { dayStart, planClock } from '../analysis/plan-clock.js';
import { BUCKET_MS, bucketStart } from '../lib/time-bucket.js';
import type { Store } from '../store/store.js';
import { loadFleetView } from '../views/load-fleet-view.js';
import { loadGateState } from '../views/load-gate-state.js';
import { loadPlanView, type PlanView } from '../views/load-plan-views.js';
import type { AlertContext, AlertMetering, AlertPause, AlertPlan } from './alert-context.js';
import { NEW_CALLER_DAYS } from './alert-rules.js';

export interface AlertContextInput {
  now: number;
  /** When the rules last ran; null or absent the first time. */
  previousRunAt?: number | null;
  thresholds: TrendThresholds;
  metering: AlertMetering | null;
  settings: AlertContext['settings'];
}

async function toAlertPlan(store: Store, view: PlanView, now: number): Promise<AlertPlan> {
  const { plan, share, status } = view;
  const backstopAt = planClock(plan).backstopAt;
  const trend = share.trend;
  return {
    id: plan.id,
    name: plan.name,
    scopeLabel: summarizeScope(view.scope),
    retireDate: plan.retireDate,
    retireDay: dayStart(plan.retireDate),
    targetShare: plan.targetShare,
    status,
    currentShare: share.currentShare ?? trend.currentShare,
    trend: { flat: trend.flat, significantDecrease: trend.significantDecrease, slopePerWeek: trend.slopePerWeek, weeks: trend.weeks, reason: trend.reason },
    action: plan.action,
    exemptions: plan.exemptions,
    gate:
      plan.gate === null || backstopAt === null
        ? null
        : { backstopDate: plan.gate.backstopDate, backstopAt, maxShare: plan.gate.maxShare, quietDays: plan.quietDays, state: await loadGateState(store, plan, now) },
  };
}

/** Pauses in force or ended since the previous run (the last day, the first time), with their plans' names. */
async function loadAlertPauses(store: Store, now: number, previousRunAt: number | null): Promise<AlertPause[]> {
  const pauses = await store.listPlanPauses({ endedSince: Math.min(previousRunAt ?? now - DAY_MS, now) });
  if (pauses.length === 0) return [];
  // Archived plans too: a pause outlives nothing, but its alert must still resolve by name.
  const names = new Map((await store.listPlans({ includeArchived: true })).map((plan) => [plan.id, plan.name]));
  return pauses.map((pause) => ({ ...pause, planName: names.get(pause.planId) ?? `#${pause.planId}` }));
}

/**
 * Reads what the rules judge: every active plan's view and gate, recent new legacy callers, the
 * last complete hour's refusals, and the given metering health.
 */
export async function loadAlertContext(store: Store, input: AlertContextInput): Promise<AlertContext> {
  const { now } = input;
  const plans = await Promise.all((await store.listPlans()).map(async (plan) => toAlertPlan(store, await loadPlanView(store, plan, now, input.thresholds), now)));
  // Today and the six days before it: the days a caller first seen on them is still new.
  const { meteredSince, callers } = await store.listNewLegacyCallers(bucketStart(now, 'day') - (NEW_CALLER_DAYS - 1) * DAY_MS);
  // The hour in progress is still filling and starts again from zero each hour: judged, it would come and go.
  const hourStart = bucketStart(now, 'hour') - BUCKET_MS.hour;
  const refusals = { hourStart, callers: await store.listCallerRefusals(hourStart) };
  const displayNames = new Map([...(await loadCallerRecords(store)).records.values()].flatMap((r) => (r.displayName === null ? [] : [[r.key, r.displayName] as const])));
  const previousRunAt = input.previousRunAt ?? null;
  const pauses = await loadAlertPauses(store, now, previousRunAt);
  return { now, previousRunAt, pauses, plans, newLegacyCallers: callers, legacyMeteredSince: meteredSince, metering: input.metering, fleet: await loadFleetView(store, now), refusals, displayNames, settings: input.settings };
}
