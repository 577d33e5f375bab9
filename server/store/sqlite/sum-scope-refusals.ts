import { and, eq, gte, lt, min, sql } from 'drizzle-orm';
import { bucketStart, type Bucket } from '../../lib/time-bucket.js';
import { inScopeShape } from '../served-in-scope.js';
import type { Db } from './open-database.js';
import { trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from './schema/index.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import type { ScopeRefusals } from '../records/scope-refusals.js';

const TABLES: Readonly<Record<Bucket, TrafficTable>> = { minute: trafficMinuteTable, hour: trafficHourTable, day: trafficDayTable };

/**
 * The finest table that still holds every row from `from` on. Retention deletes from the old end
 * only, so a table whose oldest row is no later than `from` is whole from there; one whose oldest row
 * is later either lost rows or had none, and the next coarser table holds them either way.
 */
export function bucketFor(db: Db, from: number): Bucket {
  for (const bucket of ['minute', 'hour'] as const) {
    const t = TABLES[bucket];
    const oldest = db.select({ at: min(t.bucketStart) }).from(t).get()?.at ?? null;
    if (oldest !== null && oldest <= bucketStart(from, bucket)) return bucket;
  }
  return 'day';
}

/**
 * Refused and would-block requests shaped like a plan's scope in [from, to). The scope is matched on
 * era, transport and version as isInScopeShape does: a refused request was never served, so the
 * served-in-scope predicate cannot select it.
 */
export function sumScopeRefusals(db: Db, scope: { kind: PlanScopeKind; value: string }, span: { from: number; to: number }, bucket: Bucket): ScopeRefusals {
  const t = TABLES[bucket];
  const row = db
    .select({
      refused: sql<number>`coalesce(sum(case when ${t.outcome} = 'blocked' then ${t.count} else 0 end), 0)`,
      wouldBlock: sql<number>`coalesce(sum(${t.wouldBlockCount}), 0)`,
    })
    .from(t)
    .where(and(gte(t.bucketStart, bucketStart(span.from, bucket)), lt(t.bucketStart, span.to), eq(t.kind, 'request'), inScopeShape(t, scope)))
    .get();
  return { refused: row?.refused ?? 0, wouldBlock: row?.wouldBlock ?? 0, bucket };
}
