import { computeDryRun, computeDryRunWindow, type DryRun } from '../analysis/compute-dry-run.js';
import type { Store } from '../store/store.js';
import type { PlanRecord } from '../store/sqlite/plan-record.js';
import { loadCallersByEra } from './load-callers-by-era.js';
import { UNIDENTIFIED_KEYS } from './load-integration-views.js';
import { scopeOf } from './load-plan-views.js';

/** Who a cut of the plan's scope on `at` (YYYY-MM-DD) would refuse, judged on the stored day counts. */
export async function loadDryRun(store: Store, plan: PlanRecord, at: string, now: number): Promise<DryRun> {
  const window = computeDryRunWindow(at, plan.quietDays, now);
  const callers = await store.listScopeCallers(scopeOf(plan), window);
  const records = new Map((await store.listIntegrations()).map((r) => [r.key, r]));
  // Whether each caller is already moving, over the same days.
  const byEra = await loadCallersByEra(store, window);
  return computeDryRun({
    at,
    window,
    callers,
    facts: (key) => {
      const record = records.get(key);
      const migration = byEra.migration(byEra.eras(key), record?.lastLegacySeen);
      return { identifiable: !UNIDENTIFIED_KEYS.has(key), displayName: record?.displayName ?? null, owner: record?.owner ?? null, contact: record?.contact ?? null, migration };
    },
    exemptions: plan.exemptions,
    servedRequests: await store.sumServedRequests(window),
    live: plan.action === 'dryrun',
  });
}
