import type { Bucket } from '../../lib/time-bucket.js';

export const TRAFFIC_DIMENSIONS = ['era', 'transport', 'reason', 'version', 'method', 'kind', 'outcome', 'integration', 'node'] as const;
export type TrafficDimension = (typeof TRAFFIC_DIMENSIONS)[number];

export interface TrafficQuery {
  from: number;
  to: number;
  bucket: Bucket;
  groupBy: TrafficDimension;
  filters: Partial<Record<TrafficDimension, string>>;
}

/** Counts per bucket and group, every bucket of the range present (zero-filled) in time order. */
export interface TrafficSeries {
  bucket: Bucket;
  groupBy: TrafficDimension;
  from: string;
  to: string;
  series: { start: string; counts: Record<string, number> }[];
  totals: Record<string, number>;
  /** Requests whose modern headers disagreed with their body, within the same filters. */
  claimMismatches: number;
  /** Requests a plan in dry run would have refused (they were served), within the same filters. */
  wouldBlock: number;
}
