import { callerOf } from '../caller-of.js';
import { and, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { trafficDayTable } from './schema/index.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { inScopeShape, requestsOnBasis, servedInScope, servedRequests } from '../served-in-scope.js';
import type { CallerVolume } from '../records/caller-volume.js';

/** Served and legacy-served work requests per caller since `since` (UTC day rows). */
export function listCallerVolumes(db: Db, since: number): CallerVolume[] {
  const t = trafficDayTable;
  const legacy = servedInScope(t, { kind: 'era', value: 'legacy' });
  return db
    .select({
      integration: callerOf(t.integration),
      served: sql<number>`sum(${t.count})`,
      legacyServed: sql<number>`sum(case when ${legacy} then ${t.count} else 0 end)`,
    })
    .from(t)
    .where(and(gte(t.bucketStart, since), servedRequests(t)))
    .groupBy(callerOf(t.integration))
    .all();
}

/**
 * The last UTC day since `since` each caller had served work requests in a plan's scope: a refused
 * probe or a bare handshake puts no caller on a plan's deadline list.
 */
export function listScopeLastUse(db: Db, scope: { kind: PlanScopeKind; value: string }, since: number): Map<string, number> {
  const t = trafficDayTable;
  const rows = db
    .select({ integration: callerOf(t.integration), lastDay: sql<number>`max(${t.bucketStart})` })
    .from(t)
    .where(and(gte(t.bucketStart, since), servedInScope(t, scope)))
    .groupBy(callerOf(t.integration))
    .all();
  return new Map(rows.map((r) => [r.integration, r.lastDay]));
}

/**
 * Callers with served work requests in a plan's scope on some UTC day before `before`: the callers a
 * block-new date lets through. A refused probe or a bare handshake makes nobody known.
 */
export function listScopeCallersBefore(db: Db, scope: { kind: PlanScopeKind; value: string }, before: number): Set<string> {
  const t = trafficDayTable;
  const rows = db
    .selectDistinct({ integration: callerOf(t.integration) })
    .from(t)
    .where(and(lt(t.bucketStart, before), servedInScope(t, scope)))
    .all();
  return new Set(rows.map((r) => r.integration));
}

/**
 * The last UTC day since `since` each caller sent work requests in a plan's scope that were served
 * or refused by a plan: a caller refused every day has not migrated, it is failing.
 */
export function listScopeLastTraffic(db: Db, scope: { kind: PlanScopeKind; value: string }, since: number): Map<string, number> {
  const t = trafficDayTable;
  const refused = and(requestsOnBasis(t), eq(t.outcome, 'blocked'), inScopeShape(t, scope));
  const rows = db
    .select({ integration: callerOf(t.integration), lastDay: sql<number>`max(${t.bucketStart})` })
    .from(t)
    .where(and(gte(t.bucketStart, since), or(servedInScope(t, scope), refused)))
    .groupBy(callerOf(t.integration))
    .all();
  return new Map(rows.map((r) => [r.integration, r.lastDay]));
}
