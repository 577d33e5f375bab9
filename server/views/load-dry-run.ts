import { computeDryRun, computeDryRunWindow, type DryRun } from '../analysis/compute-dry-run.js';
import { listIntegrations } from '../store/sqlite/list-integrations.js';
import { listScopeCallers } from '../store/sqlite/list-scope-callers.js';
import type { Db } from '../store/sqlite/open-database.js';
import type { PlanRecord } from '../store/sqlite/plan-record.js';
import { sumServedRequests } from '../store/sqlite/sum-served-requests.js';
import { UNIDENTIFIED_KEYS } from './load-integration-views.js';
import { scopeOf } from './load-plan-views.js';

/** Who a cut of the plan's scope on `at` (YYYY-MM-DD) would refuse, judged on the stored day counts. */
export function loadDryRun(db: Db, plan: PlanRecord, at: string, now: number): DryRun {
  const window = computeDryRunWindow(at, plan.quietDays, now);
  const callers = listScopeCallers(db, scopeOf(plan), window);
  const records = new Map(listIntegrations(db).map((r) => [r.key, r]));
  return computeDryRun({
    at,
    window,
    callers,
    facts: (key) => {
      const record = records.get(key);
      return { identifiable: !UNIDENTIFIED_KEYS.has(key), displayName: record?.displayName ?? null, owner: record?.owner ?? null, contact: record?.contact ?? null };
    },
    exemptions: plan.exemptions,
    servedRequests: sumServedRequests(db, window),
    live: plan.action === 'dryrun',
  });
}
