import { and, gt, inArray, isNull } from 'drizzle-orm';
import type { PauseInput, PlanPauseRecord } from '../records/plan-pause-record.js';
import type { PgDb } from './pg-db.js';
import { bumpPolicyVersion } from './policy-version.js';
import { planPausesTable } from './schema/index.js';

function activePauses(planIds: readonly number[] | 'all', now: number) {
  const t = planPausesTable;
  return and(isNull(t.resumedAt), gt(t.endsAt, now), planIds === 'all' ? undefined : inArray(t.planId, [...planIds]));
}

/** Pauses each plan from `now` to `endsAt` (a paused plan's pause is replaced), with the policy version's bump. */
export async function pausePlans(db: PgDb, input: PauseInput, now: number): Promise<PlanPauseRecord[]> {
  return db.transaction(async (tx) => {
    await tx.update(planPausesTable).set({ resumedAt: now, resumedBy: input.by }).where(activePauses(input.planIds, now));
    const rows: PlanPauseRecord[] = [];
    for (const planId of input.planIds) {
      const [row] = await tx.insert(planPausesTable).values({ planId, reason: input.reason, startedAt: now, endsAt: input.endsAt, pausedBy: input.by }).returning();
      rows.push(row!);
    }
    await bumpPolicyVersion(tx, now);
    return rows;
  });
}

/** Ends the pauses in force of these plans (or of all) at `now`; answers those it ended. */
export async function resumePlans(db: PgDb, planIds: readonly number[] | 'all', by: string, now: number): Promise<PlanPauseRecord[]> {
  return db.transaction(async (tx) => {
    const ended = await tx.update(planPausesTable).set({ resumedAt: now, resumedBy: by }).where(activePauses(planIds, now)).returning();
    if (ended.length > 0) await bumpPolicyVersion(tx, now);
    return ended.sort((a, b) => a.planId - b.planId || a.id - b.id);
  });
}
