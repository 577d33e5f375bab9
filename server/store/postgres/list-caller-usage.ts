import { callerOf } from '../caller-of.js';
import { and, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { CallerVolume } from '../records/caller-volume.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { trafficDayTable } from './schema/index.js';
import { inScopeShape, requestsOnBasis, servedInScope, servedRequests } from '../served-in-scope.js';

type Scope = { kind: PlanScopeKind; value: string };

/** Served and legacy-served work requests per caller since `since` (UTC day rows). */
export async function listCallerVolumes(db: PgDb, since: number): Promise<CallerVolume[]> {
  const t = trafficDayTable;
  const legacy = servedInScope(t, { kind: 'era', value: 'legacy' });
  return db
    .select({
      integration: callerOf(t.integration),
      served: sql<number>`sum(${t.count})`.mapWith(Number),
      legacyServed: sql<number>`sum(case when ${legacy} then ${t.count} else 0 end)`.mapWith(Number),
    })
    .from(t)
    .where(and(gte(t.bucketStart, since), servedRequests(t)))
    .groupBy(callerOf(t.integration))
    .orderBy(binaryOrder(callerOf(t.integration)));
}

/** The last UTC day since `since` each caller had served work requests in a plan's scope. */
export async function listScopeLastUse(db: PgDb, scope: Scope, since: number): Promise<Map<string, number>> {
  const t = trafficDayTable;
  const rows = await db
    .select({ integration: callerOf(t.integration), lastDay: sql<number>`max(${t.bucketStart})`.mapWith(Number) })
    .from(t)
    .where(and(gte(t.bucketStart, since), servedInScope(t, scope)))
    .groupBy(callerOf(t.integration))
    .orderBy(binaryOrder(callerOf(t.integration)));
  return new Map(rows.map((r) => [r.integration, r.lastDay]));
}

/** Callers with served work requests in a plan's scope on some UTC day before `before`. */
export async function listScopeCallersBefore(db: PgDb, scope: Scope, before: number): Promise<Set<string>> {
  const t = trafficDayTable;
  const rows = await db
    .selectDistinct({ integration: callerOf(t.integration) })
    .from(t)
    .where(and(lt(t.bucketStart, before), servedInScope(t, scope)));
  return new Set(rows.map((r) => r.integration).sort(compareBinary));
}

/** The last UTC day since `since` each caller sent work requests in a plan's scope that were served or refused by a plan. */
export async function listScopeLastTraffic(db: PgDb, scope: Scope, since: number): Promise<Map<string, number>> {
  const t = trafficDayTable;
  const refused = and(requestsOnBasis(t), eq(t.outcome, 'blocked'), inScopeShape(t, scope));
  const rows = await db
    .select({ integration: callerOf(t.integration), lastDay: sql<number>`max(${t.bucketStart})`.mapWith(Number) })
    .from(t)
    .where(and(gte(t.bucketStart, since), or(servedInScope(t, scope), refused)))
    .groupBy(callerOf(t.integration))
    .orderBy(binaryOrder(callerOf(t.integration)));
  return new Map(rows.map((r) => [r.integration, r.lastDay]));
}

function compareBinary(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
