import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { BUCKET_MS, bucketStart, type Bucket } from '../../lib/time-bucket.js';
import { TRAFFIC_DIMENSIONS, type TrafficQuery, type TrafficSeries } from '../sqlite/list-traffic.js';
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
    if (value !== undefined) conditions.push(eq(table[dimension], value));
  }
  const group = table[query.groupBy];
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

  // Group names are client-chosen (a method called `constructor`): no prototype to collide with.
  const byStart = new Map<number, Record<string, number>>();
  for (let start = first; start < query.to; start += BUCKET_MS[query.bucket]) byStart.set(start, countsRecord());
  const totals = countsRecord();
  let claimMismatches = 0;
  let wouldBlock = 0;
  for (const row of rows) {
    const counts = byStart.get(row.start);
    if (counts !== undefined) counts[row.group] = (counts[row.group] ?? 0) + row.count;
    totals[row.group] = (totals[row.group] ?? 0) + row.count;
    claimMismatches += row.mismatches;
    wouldBlock += row.wouldBlock;
  }
  return {
    bucket: query.bucket,
    groupBy: query.groupBy,
    from: new Date(first).toISOString(),
    to: new Date(query.to).toISOString(),
    series: [...byStart].map(([start, counts]) => ({ start: new Date(start).toISOString(), counts })),
    totals,
    claimMismatches,
    wouldBlock,
  };
}

function countsRecord(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}
