import { computeGateState, type GateState } from '../analysis/compute-gate-state.js';
import { DAY_MS } from '../analysis/compute-week-start.js';
import { planClock } from '../analysis/plan-clock.js';
import { bucketStart } from '../lib/time-bucket.js';
import type { Store } from '../store/store.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import { UNIDENTIFIED_KEYS } from './unidentified-keys.js';
import { scopeOf } from '../analysis/plan-scope.js';

/** A plan's usage gate judged on stored counts: who used the scope in its quiet days, and its share then. */
export async function loadGateState(store: Store, plan: PlanRecord, now: number): Promise<GateState> {
  const clock = planClock(plan);
  const scope = scopeOf(plan);
  // Day rows: the first day that overlaps the quiet window.
  const since = bucketStart(now - plan.quietDays * DAY_MS, 'day');
  const lastUse = new Map([...(await store.listScopeLastUse(scope, since))].filter(([key]) => !UNIDENTIFIED_KEYS.has(key)));
  const { inScope, total } = plan.gate === null ? { inScope: 0, total: 0 } : await store.sumScopeShare(scope, plan.basis, since);
  return computeGateState(
    {
      retireAt: clock.retireAt,
      backstopAt: clock.backstopAt,
      maxShare: plan.gate?.maxShare ?? null,
      quietDays: plan.quietDays,
      exemptions: plan.exemptions,
      lastUse,
      share: total === 0 ? null : inScope / total,
    },
    now,
  );
}
