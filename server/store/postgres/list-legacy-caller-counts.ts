import { callerOf } from '../caller-of.js';
import { and, gte, lt, sql } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { legacyCallerDayTable } from './schema/index.js';

/** How many distinct callers had served legacy work requests, per UTC day. */
export async function listLegacyCallerCounts(db: PgDb, from: number, to: number): Promise<{ day: number; count: number }[]> {
  const t = legacyCallerDayTable;
  return db
    .select({ day: t.day, count: sql<number>`count(distinct ${callerOf(t.integration)})`.mapWith(Number) })
    .from(t)
    .where(and(gte(t.day, from), lt(t.day, to)))
    .groupBy(t.day)
    .orderBy(t.day);
}
