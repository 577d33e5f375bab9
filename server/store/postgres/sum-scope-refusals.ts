import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { bucketStart, type Bucket } from '../../lib/time-bucket.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import type { ScopeRefusals } from '../records/scope-refusals.js';
import type { PgDb } from './pg-db.js';
import { trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from './schema/index.js';
import { inScopeShape } from '../served-in-scope.js';

const TABLES: Readonly<Record<Bucket, TrafficTable>> = { minute: trafficMinuteTable, hour: trafficHourTable, day: trafficDayTable };

/**
 * The finest table that still holds every row from `from` on. Retention deletes from the old end
 * only, so a table whose oldest row is no later than `from` is whole from there.
 */
export async function bucketFor(db: PgDb, from: number): Promise<Bucket> {
  for (const bucket of ['minute', 'hour'] as const) {
    const t = TABLES[bucket];
    const [row] = await db.select({ at: sql<number | null>`min(${t.bucketStart})`.mapWith(Number) }).from(t);
    const oldest = row?.at ?? null;
    if (oldest !== null && oldest <= bucketStart(from, bucket)) return bucket;
  }
  return 'day';
}

/** Refused and would-block requests shaped like a plan's scope in [from, to). */
export async function sumScopeRefusals(db: PgDb, scope: { kind: PlanScopeKind; value: string }, span: { from: number; to: number }, bucket: Bucket): Promise<ScopeRefusals> {
  const t = TABLES[bucket];
  const [row] = await db
    .select({
      refused: sql<number>`coalesce(sum(case when ${t.outcome} = 'blocked' then ${t.count} else 0 end), 0)`.mapWith(Number),
      wouldBlock: sql<number>`coalesce(sum(${t.wouldBlockCount}), 0)`.mapWith(Number),
    })
    .from(t)
    .where(and(gte(t.bucketStart, bucketStart(span.from, bucket)), lt(t.bucketStart, span.to), eq(t.kind, 'request'), inScopeShape(t, scope)));
  return { refused: row?.refused ?? 0, wouldBlock: row?.wouldBlock ?? 0, bucket };
}
