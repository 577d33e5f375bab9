import { computeDryRun, computeDryRunWindow, savedOn, type DryRun } from '../analysis/compute-dry-run.js';
import type { Store } from '../store/store.js';
import type { PlanRecord } from '../store/records/plan-record.js';
import { loadCallersByEra } from './load-callers-by-era.js';
import { loadCallerRecords } from './load-caller-records.js';
import { UNIDENTIFIED_KEYS } from './unidentified-keys.js';
import { scopeOf } from '../analysis/plan-scope.js';

const NOT_TOLD = { notices: 0, lastNoticeAt: null, lastContactAt: null };

/** Per caller: the plan's notices delivered to it and the last one's time, and the last contact made by hand. */
async function loadTold(store: Store, planId: number): Promise<(key: string) => { notices: number; lastNoticeAt: number | null; lastContactAt: number | null }> {
  const byCaller = new Map<string, { notices: number; lastNoticeAt: number | null; lastContactAt: number | null }>();
  const entry = (key: string) => byCaller.get(key) ?? byCaller.set(key, { ...NOT_TOLD }).get(key)!;
  for (const notice of await store.listCallerNotices({ planId })) {
    if (notice.status !== 'delivered') continue;
    const told = entry(notice.integration);
    told.notices += 1;
    told.lastNoticeAt = Math.max(told.lastNoticeAt ?? 0, notice.finishedAt ?? notice.claimedAt);
  }
  for (const contact of await store.listCallerContacts()) {
    const told = entry(contact.integration);
    told.lastContactAt = Math.max(told.lastContactAt ?? 0, contact.at);
  }
  return (key) => byCaller.get(key) ?? NOT_TOLD;
}

/** Who a cut of the plan's scope on `at` (YYYY-MM-DD) would refuse, judged on the stored day counts. */
export async function loadDryRun(store: Store, plan: PlanRecord, at: string, now: number): Promise<DryRun> {
  const window = computeDryRunWindow(at, plan.quietDays, now);
  const scope = scopeOf(plan);
  const callers = await store.listScopeCallers(scope, window);
  // People are kept per UTC day, as the day counts are: the same days are read.
  const people = new Map((await store.listCallerPeople(window, scope)).map((row) => [row.integration, row.total]));
  const saved = savedOn(at, callers.map((c) => c.integration), plan.exemptions);
  const refusedPeople = (await store.countPeople(window, scope, saved)).total;
  const { records } = await loadCallerRecords(store);
  // Whether each caller is already moving, over the same days.
  const byEra = await loadCallersByEra(store, window);
  const told = await loadTold(store, plan.id);
  return computeDryRun({
    at,
    window,
    callers,
    facts: (key) => {
      const record = records.get(key);
      const migration = byEra.migration(byEra.eras(key), record?.lastLegacySeen);
      return { identifiable: !UNIDENTIFIED_KEYS.has(key), displayName: record?.displayName ?? null, owner: record?.owner ?? null, contact: record?.contact ?? null, migration, told: told(key), people: people.get(key) ?? null };
    },
    exemptions: plan.exemptions,
    servedRequests: await store.sumServedRequests(window),
    live: plan.action === 'dryrun',
    refusedPeople,
  });
}
