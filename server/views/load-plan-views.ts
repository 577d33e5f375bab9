import { computePlanStatus, type PlanStatus } from '../analysis/compute-plan-status.js';
import type { TrendThresholds } from '../analysis/compute-trend.js';
import { DAY_MS } from '../analysis/compute-week-start.js';
import { dayStart } from '../analysis/plan-clock.js';
import { scopeOf, summarizeScope, type PlanScope } from '../analysis/plan-scope.js';
import type { Store } from '../store/store.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import { loadPlanEnforcement, type PlanEnforcement } from './load-plan-enforcement.js';
import { loadShareView, type ShareView } from './load-share-view.js';

export interface PlanView {
  plan: PlanRecord;
  scope: PlanScope;
  status: PlanStatus;
  share: ShareView;
  enforcement: PlanEnforcement;
}

/** How far back a plan's curve goes unless asked otherwise. */
export const DEFAULT_CURVE_DAYS = 180;

/**
 * One plan judged against measured traffic on the plan's basis: its share curve (daily unless
 * asked, the last 180 days unless asked), the weekly trend and the status with its reason, and
 * its enforcement.
 */
export async function loadPlanView(store: Store, plan: PlanRecord, now: number, thresholds: TrendThresholds, options: { from?: number; to?: number; bucket?: 'day' | 'week'; node?: string } = {}): Promise<PlanView> {
  const scope = scopeOf(plan);
  const to = options.to ?? now;
  const from = options.from ?? now - DEFAULT_CURVE_DAYS * DAY_MS;
  const share = await loadShareView(store, { scope, basis: plan.basis, bucket: options.bucket ?? 'day', from, to, target: plan.targetShare, now, thresholds, ...(options.node === undefined ? {} : { node: options.node }) });
  const status = computePlanStatus(
    { retireDate: dayStart(plan.retireDate), announceDate: dayStart(plan.announceDate), targetShare: plan.targetShare, label: summarizeScope(scope) },
    share.trend,
    share.currentShare,
    now,
    thresholds,
  );
  return { plan, scope, status, share, enforcement: await loadPlanEnforcement(store, plan, now) };
}
