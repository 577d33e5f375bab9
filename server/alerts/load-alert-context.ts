import type { TrendThresholds } from '../analysis/compute-trend.js';
import { DAY_MS } from '../analysis/compute-week-start.js';
import { summarizeScope } from '../analysis/plan-scope.js';
import { bucketStart } from '../lib/time-bucket.js';
import { listNewLegacyCallers } from '../store/list-new-legacy-callers.js';
import { listPlans } from '../store/list-plans.js';
import type { Db } from '../store/open-database.js';
import { loadFleetView } from '../views/load-fleet-view.js';
import { loadPlanView, planDay, type PlanView } from '../views/load-plan-views.js';
import type { AlertContext, AlertMetering, AlertPlan } from './alert-context.js';
import { NEW_CALLER_DAYS } from './alert-rules.js';

export interface AlertContextInput {
  now: number;
  thresholds: TrendThresholds;
  metering: AlertMetering;
  settings: AlertContext['settings'];
}

function toAlertPlan(view: PlanView): AlertPlan {
  const { plan, share, status } = view;
  const trend = share.trend;
  return {
    id: plan.id,
    name: plan.name,
    scopeLabel: summarizeScope(view.scope),
    retireDate: plan.retireDate,
    retireDay: planDay(plan.retireDate),
    targetShare: plan.targetShare,
    status,
    currentShare: share.currentShare ?? trend.currentShare,
    trend: { flat: trend.flat, significantDecrease: trend.significantDecrease, slopePerWeek: trend.slopePerWeek, weeks: trend.weeks, reason: trend.reason },
  };
}

/** Reads what the rules judge: every active plan's view, recent new legacy callers, and the given metering health. */
export function loadAlertContext(db: Db, input: AlertContextInput): AlertContext {
  const { now } = input;
  const plans = listPlans(db).map((plan) => toAlertPlan(loadPlanView(db, plan, now, input.thresholds)));
  // Today and the six days before it: the days a caller first seen on them is still new.
  const { meteredSince, callers } = listNewLegacyCallers(db, bucketStart(now, 'day') - (NEW_CALLER_DAYS - 1) * DAY_MS);
  return { now, plans, newLegacyCallers: callers, legacyMeteredSince: meteredSince, metering: input.metering, fleet: loadFleetView(db), settings: input.settings };
}
