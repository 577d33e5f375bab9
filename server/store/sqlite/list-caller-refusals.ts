import { callerOf } from '../caller-of.js';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { BUCKET_MS } from '../../lib/time-bucket.js';
import type { Db } from './open-database.js';
import { integrationsTable, trafficHourTable } from './schema/index.js';
import { REFUSAL_BASELINE_HOURS, type CallerRefusals } from '../records/caller-refusals.js';

/**
 * Requests refused by a plan (outcome `blocked`) per caller in one hour and in the 24 hours before
 * it, from hour rows; callers with no refusal in either are left out.
 */
export function listCallerRefusals(db: Db, hourStart: number): CallerRefusals[] {
  const t = trafficHourTable;
  const hourEnd = hourStart + BUCKET_MS.hour;
  return db
    .select({
      integration: callerOf(t.integration),
      displayName: integrationsTable.displayName,
      inHour: sql<number>`coalesce(sum(case when ${t.bucketStart} >= ${hourStart} then ${t.count} else 0 end), 0)`,
      dayBefore: sql<number>`coalesce(sum(case when ${t.bucketStart} < ${hourStart} then ${t.count} else 0 end), 0)`,
    })
    .from(t)
    .leftJoin(integrationsTable, eq(integrationsTable.key, callerOf(t.integration)))
    .where(and(eq(t.outcome, 'blocked'), eq(t.kind, 'request'), gte(t.bucketStart, hourStart - REFUSAL_BASELINE_HOURS * BUCKET_MS.hour), lt(t.bucketStart, hourEnd)))
    .groupBy(callerOf(t.integration))
    .all();
}
