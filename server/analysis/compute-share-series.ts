/**
 * The in-scope share of served requests per day or ISO week, on a basis (work requests by
 * default, or all requests), with refusals, failures, era-negotiation probes and served
 * negotiation counted beside it, and the part of the share mcp-sunset's legacy bridge served. Pure.
 * Invariants: 0 ≤ bridged ≤ inScope ≤ served, so 0 ≤ bridgedShare ≤ share ≤ 1 (both null when
 * nothing was served); every counted request lands in at most one of served / refused / failed /
 * probes, and a served negotiation is counted in `negotiation` whatever the basis (inside `served`
 * too on all-requests).
 */
import type { Era, Outcome, Transport } from '../protocol/vocabulary.js';
import { bucketStart } from '../lib/time-bucket.js';
import { isLegacyServed, isServed } from '../protocol/served.js';
import { countsToward, type RequestClass, type ShareBasis } from '../protocol/work-request.js';
import { computeWeekStart, DAY_MS, WEEK_MS } from './compute-week-start.js';
import { isInScopeShape, type PlanScope } from './plan-scope.js';

/** Requests aggregated per UTC day, as the store hands them over. */
export interface ShareRow {
  /** UTC day start, epoch ms. */
  day: number;
  era: Era;
  transport: Transport;
  version: string;
  outcome: Outcome;
  /** Work, negotiation (initialize, server/discover) or plumbing (ping, logging/setLevel). */
  requestClass: RequestClass;
  count: number;
}

export interface DayCount {
  day: number;
  count: number;
}

export type ShareBucket = 'day' | 'week';

export interface SharePoint {
  start: number;
  served: number;
  inScope: number;
  share: number | null;
  refused: number;
  failed: number;
  probes: number;
  /** Served negotiation requests (initialize, server/discover) of any scope, beside the curve. */
  negotiation: number;
  /** Distinct integrations with served legacy work (weekly: the busiest day); null outside the era scope. */
  legacyIntegrations: number | null;
  /** Distinct integrations with served modern work, beside `legacyIntegrations` (weekly: the busiest day); null when it is. */
  modernIntegrations: number | null;
  /** Of `inScope`, the requests mcp-sunset's legacy bridge served (reason `bridge`). */
  bridged: number;
  /** bridged / served: how much of the traffic the bridge still carries; null when nothing was served. */
  bridgedShare: number | null;
}

export interface ShareSeriesInput {
  rows: readonly ShareRow[];
  /**
   * The requests of `rows` that the legacy bridge answered (reason `bridge`), counted again on
   * their own because the rows do not keep the reason. Absent: nothing was bridged.
   */
  bridgedRows?: readonly ShareRow[];
  /** Null when not known for these rows (one node's: callers are counted across the fleet). */
  legacyIntegrations: readonly DayCount[] | null;
  /** Distinct callers with served modern work per day; absent or null: not shown. */
  modernIntegrations?: readonly DayCount[] | null;
  scope: PlanScope;
  basis: ShareBasis;
  bucket: ShareBucket;
  from: number;
  to: number;
}

/**
 * The caller or our policy said no: the request was answered, with a refusal. Refusals and
 * failures are in-scope requests of every class whatever the basis: a refused initialize is the
 * work that never happened.
 */
const REFUSED: ReadonlySet<Outcome> = new Set<Outcome>([
  'unsupported-version', 'header-mismatch', 'missing-capability', 'method-not-found',
  'invalid-params', 'session-gone', 'client-error', 'blocked',
]);
/** Nobody decided: the server or the path broke, or the client left. */
const FAILED: ReadonlySet<Outcome> = new Set<Outcome>(['server-error', 'upstream-unreachable', 'no-response', 'cancelled']);

export function computeBucketStart(at: number, bucket: ShareBucket): number {
  return bucket === 'week' ? computeWeekStart(at) : bucketStart(at, 'day');
}

/**
 * An auto-negotiating client asks a server which eras it speaks with a modern `server/discover`;
 * a legacy-only server refuses it and the client falls back. That refusal is negotiation, not a
 * failure of the modern era, so it goes to `probes` whatever the scope.
 */
export function isEraProbe(row: ShareRow): boolean {
  return row.era === 'modern' && row.requestClass === 'negotiation' && !isServed(row.outcome);
}

function isInScopeServed(scope: PlanScope, row: ShareRow): boolean {
  // The era scope counts what the legacy path answered, served-as-legacy included.
  if (scope.kind === 'era') return isLegacyServed(row.era, row.outcome);
  return isInScopeShape(scope, row);
}

/**
 * One zero-filled point per bucket that overlaps [from, to), in time order. Buckets are whole:
 * `from` is floored to its bucket start and the last bucket keeps all its days, because a partial
 * week would bring back the weekday seasonality that weekly buckets exist to cancel. Rows whose
 * count is not a positive finite number are ignored. One point is allocated per bucket, so the
 * caller (the API's query schema) bounds the range.
 */
export function computeShareSeries(input: ShareSeriesInput): SharePoint[] {
  const { rows, scope, basis, bucket, from, to } = input;
  if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) return [];
  const size = bucket === 'week' ? WEEK_MS : DAY_MS;
  const withIntegrations = scope.kind === 'era' && input.legacyIntegrations !== null;
  const withModern = withIntegrations && input.modernIntegrations !== undefined && input.modernIntegrations !== null;

  const points: SharePoint[] = [];
  const indexOf = new Map<number, number>();
  for (let start = computeBucketStart(from, bucket); start < to; start += size) {
    indexOf.set(start, points.length);
    points.push({ start, served: 0, inScope: 0, share: null, refused: 0, failed: 0, probes: 0, negotiation: 0, legacyIntegrations: withIntegrations ? 0 : null, modernIntegrations: withModern ? 0 : null, bridged: 0, bridgedShare: null });
  }

  for (const row of rows) {
    if (!Number.isFinite(row.count) || row.count <= 0) continue;
    const point = points[indexOf.get(computeBucketStart(row.day, bucket)) ?? -1];
    if (point === undefined) continue;
    if (isServed(row.outcome)) {
      if (row.requestClass === 'negotiation') point.negotiation += row.count;
      if (!countsToward(basis, row.requestClass)) continue;
      point.served += row.count;
      if (isInScopeServed(scope, row)) point.inScope += row.count;
    } else if (isEraProbe(row)) {
      point.probes += row.count;
    } else if (isInScopeShape(scope, row)) {
      if (REFUSED.has(row.outcome)) point.refused += row.count;
      else if (FAILED.has(row.outcome)) point.failed += row.count;
    }
  }

  // Distinct callers do not add up across days (one caller active all week would count seven
  // times) and the daily aggregate no longer knows who they were; the busiest day is an exact
  // lower bound on the week's distinct count and matches what the daily chart shows.
  const busiestDay = (counts: readonly DayCount[] | null | undefined, field: 'legacyIntegrations' | 'modernIntegrations') => {
    for (const { day, count } of counts ?? []) {
      const point = points[indexOf.get(computeBucketStart(day, bucket)) ?? -1];
      if (point !== undefined && Number.isFinite(count)) point[field] = Math.max(point[field] ?? 0, count);
    }
  };
  if (withIntegrations) busiestDay(input.legacyIntegrations, 'legacyIntegrations');
  if (withModern) busiestDay(input.modernIntegrations, 'modernIntegrations');

  // The same tests as the share's numerator, so a bridged request counts exactly when its share row does.
  for (const row of input.bridgedRows ?? []) {
    if (!Number.isFinite(row.count) || row.count <= 0 || !isServed(row.outcome) || !countsToward(basis, row.requestClass) || !isInScopeServed(scope, row)) continue;
    const point = points[indexOf.get(computeBucketStart(row.day, bucket)) ?? -1];
    if (point !== undefined) point.bridged += row.count;
  }

  for (const point of points) {
    // Both sources are written in one transaction; the cap keeps the invariant should they ever disagree.
    point.bridged = Math.min(point.bridged, point.inScope);
    point.share = point.served > 0 ? point.inScope / point.served : null;
    point.bridgedShare = point.served > 0 ? point.bridged / point.served : null;
  }
  return points;
}
