import { computeGateState, type GateState } from '../analysis/compute-gate-state.js';
import { DAY_MS } from '../analysis/compute-week-start.js';
import { planClock } from '../analysis/plan-clock.js';
import { bucketStart } from '../lib/time-bucket.js';
import { listScopeLastUse } from '../store/sqlite/list-caller-usage.js';
import type { Db } from '../store/sqlite/open-database.js';
import type { PlanRecord } from '../store/sqlite/plan-record.js';
import { sumScopeShare } from '../store/sqlite/sum-scope-share.js';
import { UNIDENTIFIED_KEYS } from './load-integration-views.js';
import { scopeOf } from './load-plan-views.js';

/** A plan's usage gate judged on stored counts: who used the scope in its quiet days, and its share then. */
export function loadGateState(db: Db, plan: PlanRecord, now: number): GateState {
  const clock = planClock(plan);
  const scope = scopeOf(plan);
  // Day rows: the first day that overlaps the quiet window.
  const since = bucketStart(now - plan.quietDays * DAY_MS, 'day');
  const lastUse = new Map([...listScopeLastUse(db, scope, since)].filter(([key]) => !UNIDENTIFIED_KEYS.has(key)));
  const { inScope, total } = plan.gate === null ? { inScope: 0, total: 0 } : sumScopeShare(db, scope, plan.basis, since);
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
