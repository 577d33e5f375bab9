import { computeBucketStart, computeShareSeries, type ShareBucket, type SharePoint, type ShareRow } from '../analysis/compute-share-series.js';
import { computeTrend, type Trend, type TrendThresholds } from '../analysis/compute-trend.js';
import { computeWeekStart, WEEK_MS } from '../analysis/compute-week-start.js';
import type { PlanScope } from '../analysis/plan-scope.js';
import type { ShareBasis } from '../protocol/work-request.js';
import type { Store } from '../store/store.js';

export interface ShareView {
  scope: PlanScope;
  /** Which requests the share counts. */
  basis: ShareBasis;
  bucket: ShareBucket;
  from: number;
  to: number;
  target: number;
  series: SharePoint[];
  /** Fitted on complete weeks ending by `now`, whatever the bucket shown. */
  trend: Trend;
  /** The share of the latest bucket with traffic (which may still be in progress). */
  currentShare: number | null;
  /** The bridged share of that same bucket: the part of `currentShare` the legacy bridge served. */
  currentBridgedShare: number | null;
}

export interface ShareViewQuery {
  scope: PlanScope;
  basis: ShareBasis;
  bucket: ShareBucket;
  from: number;
  to: number;
  target: number;
  now: number;
  thresholds: TrendThresholds;
  /** One node's traffic only; the whole fleet's when absent. */
  node?: string;
}

/** The share curve of one scope, with its trend: what the dashboard draws and the alerts judge. */
export async function loadShareView(store: Store, query: ShareViewQuery): Promise<ShareView> {
  const { scope, basis, bucket, from, to, target, now, thresholds } = query;
  // The trend looks back a fixed number of weeks from now, whatever range is displayed.
  // Read whole buckets: the series floors `from` to its bucket start, and so must the rows it gets.
  const trendFrom = Math.min(computeBucketStart(from, bucket), computeWeekStart(now) - (thresholds.windowWeeks + 1) * WEEK_MS);
  const readTo = Math.max(to, now);
  const rows: ShareRow[] = await store.listShareRows(trendFrom, readTo, query.node);
  // Only the displayed series shows the bridged part: the trend is fitted on the whole share.
  const bridgedRows: ShareRow[] = await store.listBridgedShareRows(computeBucketStart(from, bucket), readTo, query.node);
  // Callers are counted per day across the fleet, not per node: one node's view has no such count.
  const callers = query.node !== undefined ? null : scope.kind === 'era' ? await store.listLegacyCallerCounts(trendFrom, readTo) : [];
  // Who is moving, beside who is left: distinct modern callers per day, for the displayed series only.
  const modernCallers = callers === null || scope.kind !== 'era' ? null : await store.listModernCallerCounts(computeBucketStart(from, bucket), readTo);
  const series = computeShareSeries({ rows, bridgedRows, legacyIntegrations: callers, modernIntegrations: modernCallers, scope, basis, bucket, from, to });
  const weekly = computeShareSeries({ rows, legacyIntegrations: callers, scope, basis, bucket: 'week', from: trendFrom, to: readTo });
  const trend = computeTrend(weekly, target, thresholds, now);
  const latest = [...series].reverse().find((point) => point.share !== null);
  return { scope, basis, bucket, from, to, target, series, trend, currentShare: latest?.share ?? null, currentBridgedShare: latest?.bridgedShare ?? null };
}
