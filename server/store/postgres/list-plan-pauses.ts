import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { PlanPauseQuery, PlanPauseRecord } from '../records/plan-pause-record.js';
import type { PgDb } from './pg-db.js';
import { planPausesTable } from './schema/index.js';

/** Pauses, oldest first: a plan's whole history, or those still in force or ended lately. */
export async function listPlanPauses(db: PgDb, query: PlanPauseQuery = {}): Promise<PlanPauseRecord[]> {
  const t = planPausesTable;
  return db
    .select()
    .from(t)
    .where(
      and(
        query.endedSince === undefined ? undefined : gte(sql`coalesce(${t.resumedAt}, ${t.endsAt})`, query.endedSince),
        query.planId === undefined ? undefined : eq(t.planId, query.planId),
      ),
    )
    .orderBy(asc(t.startedAt), asc(t.id));
}
