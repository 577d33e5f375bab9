import { callerOf } from '../caller-of.js';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { bucketStart, type Bucket } from '../../lib/time-bucket.js';
import { shapeTrafficSeries } from '../shape-traffic-series.js';
import { TRAFFIC_DIMENSIONS, type TrafficQuery, type TrafficSeries } from '../records/traffic-series.js';
import type { PgDb } from './pg-db.js';
import { trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from './schema/index.js';

const TABLES: Readonly<Record<Bucket, TrafficTable>> = {
  minute: trafficMinuteTable,
  hour: trafficHourTable,
  day: trafficDayTable,
};

/** Counts per bucket and group, every bucket of the range present (zero-filled) in time order. */
export async function listTraffic(db: PgDb, query: TrafficQuery): Promise<TrafficSeries> {
  const table = TABLES[query.bucket];
  const first = bucketStart(query.from, query.bucket);
  const conditions: SQL[] = [gte(table.bucketStart, first), lt(table.bucketStart, query.to)];
  for (const dimension of TRAFFIC_DIMENSIONS) {
    const value = query.filters[dimension];
    if (value !== undefined) conditions.push(dimension === 'integration' ? sql`${callerOf(table.integration)} = ${value}` : eq(table[dimension], value));
  }
  // Callers are read as joined now: a name joined into another counts under that one.
  const group = query.groupBy === 'integration' ? callerOf(table.integration) : table[query.groupBy];
  const rows = await db
    .select({
      start: table.bucketStart,
      group,
      count: sql<number>`sum(${table.count})`.mapWith(Number),
      mismatches: sql<number>`sum(${table.mismatchCount})`.mapWith(Number),
      wouldBlock: sql<number>`sum(${table.wouldBlockCount})`.mapWith(Number),
    })
    .from(table)
    .where(and(...conditions))
    .groupBy(table.bucketStart, group);

  return shapeTrafficSeries(query, first, rows);
}
