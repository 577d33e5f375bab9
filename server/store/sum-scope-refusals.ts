import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { BUCKET_MS, bucketStart, type Bucket } from '../lib/time-bucket.js';
import type { Db } from './open-database.js';
import { trafficDayTable, trafficHourTable, trafficMinuteTable, type PlanScopeKind, type TrafficTable } from './schema/index.js';
import type { TrafficRetention } from './delete-expired-traffic.js';

export interface ScopeRefusals {
  /** Requests in scope the sidecar refused (outcome `blocked`). */
  refused: number;
  /** Requests in scope a plan in dry run would have refused, and let through. */
  wouldBlock: number;
  /** The resolution the span was counted at: whole buckets of it that overlap the span. */
  bucket: Bucket;
}

const TABLES: Readonly<Record<Bucket, TrafficTable>> = { minute: trafficMinuteTable, hour: trafficHourTable, day: trafficDayTable };

/** The finest table still holding every row from `from` on: retention deletes minute rows first, then hour rows. */
export function bucketFor(from: number, now: number, retention: TrafficRetention): Bucket {
  if (from >= now - retention.minuteDays * BUCKET_MS.day) return 'minute';
  if (from >= now - retention.hourDays * BUCKET_MS.day) return 'hour';
  return 'day';
}

/**
 * Refused and would-block requests shaped like a plan's scope in [from, to). The scope is matched on
 * era, transport and version as isInScopeShape does: a refused request was never served, so the
 * served-in-scope predicate cannot select it.
 */
export function sumScopeRefusals(db: Db, scope: { kind: PlanScopeKind; value: string }, span: { from: number; to: number }, bucket: Bucket): ScopeRefusals {
  const t = TABLES[bucket];
  const shape = scope.kind === 'era' ? sql`${t.era} = ${scope.value}` : scope.kind === 'transport' ? sql`${t.transport} = ${scope.value}` : eq(t.version, scope.value);
  const row = db
    .select({
      refused: sql<number>`coalesce(sum(case when ${t.outcome} = 'blocked' then ${t.count} else 0 end), 0)`,
      wouldBlock: sql<number>`coalesce(sum(${t.wouldBlockCount}), 0)`,
    })
    .from(t)
    .where(and(gte(t.bucketStart, bucketStart(span.from, bucket)), lt(t.bucketStart, span.to), eq(t.kind, 'request'), shape))
    .get();
  return { refused: row?.refused ?? 0, wouldBlock: row?.wouldBlock ?? 0, bucket };
}
