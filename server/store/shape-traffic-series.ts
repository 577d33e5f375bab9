import { BUCKET_MS } from '../lib/time-bucket.js';
import type { TrafficQuery, TrafficSeries } from './records/traffic-series.js';

/** One group's sums in one bucket, as either backend's traffic query answers them. */
export interface TrafficGroupRow {
  start: number;
  group: string;
  count: number;
  mismatches: number;
  wouldBlock: number;
}

/** The traffic answer from grouped rows: every bucket of the range present (zero-filled), in time order. */
export function shapeTrafficSeries(query: TrafficQuery, first: number, rows: readonly TrafficGroupRow[]): TrafficSeries {
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
