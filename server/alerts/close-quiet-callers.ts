import { loadCallerRecords } from '../views/load-caller-records.js';
import { computeCallerClosures } from '../analysis/compute-caller-closures.js';
import type { Store } from '../store/store.js';
import type { IntegrationClosure } from '../store/records/integration-record.js';
import { UNIDENTIFIED_KEYS } from '../views/unidentified-keys.js';
import { scopeOf } from '../analysis/plan-scope.js';

/**
 * Marks done the identifiable callers that went quiet in every active plan's scope (no work served
 * there, and none refused: a caller refused every day is failing, not migrated), and reopens the
 * ones that came back; answers the changes made. Anonymous and overflowed traffic has no row to close.
 */
export async function closeQuietCallers(store: Store, now: number): Promise<IntegrationClosure[]> {
  const plans = await store.listPlans();
  if (plans.length === 0) return [];
  // Since the first day kept: a caller that used the scope a year ago and never since is migrated too.
  // A caller ever served in scope is a user of it; its last day there counts refusals too.
  const uses = await Promise.all(
    plans.map(async (plan) => {
      const served = await store.listScopeLastUse(scopeOf(plan), 0);
      const traffic = await store.listScopeLastTraffic(scopeOf(plan), 0);
      return { quietDays: plan.quietDays, lastUse: new Map([...served].map(([key, day]) => [key, Math.max(day, traffic.get(key) ?? day)])) };
    }),
  );
  // Names joined into another caller have no usage of their own any more: only callers are closed.
  const callers = [...(await loadCallerRecords(store)).records.values()].filter((record) => !UNIDENTIFIED_KEYS.has(record.key));
  const closures = computeCallerClosures(callers, (key) => uses.map((u) => ({ quietDays: u.quietDays, lastUse: u.lastUse.get(key) })), now);
  return store.applyIntegrationClosures(closures, now);
}
