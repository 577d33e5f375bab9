import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import type { PlanPauseQuery, PlanPauseRecord } from '../records/plan-pause-record.js';
import { planPausesTable } from './schema/index.js';

/** Pauses, oldest first: a plan's whole history, or those still in force or ended lately. */
export function listPlanPauses(db: Db, query: PlanPauseQuery = {}): PlanPauseRecord[] {
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
    .orderBy(asc(t.startedAt), asc(t.id))
    .all();
}
