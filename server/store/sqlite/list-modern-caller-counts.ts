import { callerOf } from '../caller-of.js';
import { and, gte, lt, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { trafficDayTable } from './schema/index.js';
import { servedInScope } from '../served-in-scope.js';

/** How many distinct callers had served modern work requests, per UTC day (beside the legacy count). */
export function listModernCallerCounts(db: Db, from: number, to: number): { day: number; count: number }[] {
  const t = trafficDayTable;
  return db
    .select({ day: t.bucketStart, count: sql<number>`count(distinct ${callerOf(t.integration)})` })
    .from(t)
    .where(and(gte(t.bucketStart, from), lt(t.bucketStart, to), servedInScope(t, { kind: 'era', value: 'modern' })))
    .groupBy(t.bucketStart)
    .orderBy(t.bucketStart)
    .all();
}
