import { callerOf } from '../caller-of.js';
import { and, gte, lt, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { legacyCallerDayTable } from './schema/index.js';

/** How many distinct callers had served legacy work requests, per UTC day. */
export function listLegacyCallerCounts(db: Db, from: number, to: number): { day: number; count: number }[] {
  const t = legacyCallerDayTable;
  return db
    .select({ day: t.day, count: sql<number>`count(distinct ${callerOf(t.integration)})` })
    .from(t)
    .where(and(gte(t.day, from), lt(t.day, to)))
    .groupBy(t.day)
    .orderBy(t.day)
    .all();
}
