import { and, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { bumpPolicyVersion } from './policy-version.js';
import { planPausesTable } from './schema/index.js';
import type { PauseInput, PlanPauseRecord } from '../records/plan-pause-record.js';

/** The pauses not yet ended at `now`, of these plans or of all. */
export function activePauses(planIds: readonly number[] | 'all', now: number) {
  const t = planPausesTable;
  return and(isNull(t.resumedAt), gt(t.endsAt, now), planIds === 'all' ? undefined : inArray(t.planId, [...planIds]));
}

/**
 * Pauses each plan from `now` to `endsAt`, in one transaction with the policy version's bump, so
 * every node reading the store sees the change on its next check. A plan already paused has that
 * pause ended now and replaced: one pause per plan is in force at a time.
 */
export function pausePlans(db: Db, input: PauseInput, now: number): PlanPauseRecord[] {
  return db.transaction(() => {
    db.update(planPausesTable).set({ resumedAt: now, resumedBy: input.by }).where(activePauses(input.planIds, now)).run();
    const rows = input.planIds.map((planId) => db.insert(planPausesTable).values({ planId, reason: input.reason, startedAt: now, endsAt: input.endsAt, pausedBy: input.by }).returning().get());
    bumpPolicyVersion(db, now);
    return rows;
  });
}

/** Ends the pauses in force of these plans (or of all) at `now`; answers those it ended. */
export function resumePlans(db: Db, planIds: readonly number[] | 'all', by: string, now: number): PlanPauseRecord[] {
  return db.transaction(() => {
    const ended = db.update(planPausesTable).set({ resumedAt: now, resumedBy: by }).where(activePauses(planIds, now)).returning().all();
    if (ended.length > 0) bumpPolicyVersion(db, now);
    return ended.sort((a, b) => a.planId - b.planId || a.id - b.id);
  });
}
