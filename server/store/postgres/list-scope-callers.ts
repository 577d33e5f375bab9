import { callerOf } from '../caller-of.js';
import { and, gte, lt, sql } from 'drizzle-orm';
import type { ScopeCallerRow } from '../records/scope-caller-row.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { trafficDayTable } from './schema/index.js';
import { servedInScope } from '../served-in-scope.js';
import { summarizeScopeCallers } from '../summarize-scope-callers.js';

/**
 * Every caller with served work requests in the scope on the day rows starting in [from, to):
 * how many, its first and last days, and the versions and transports they came by.
 */
export async function listScopeCallers(db: PgDb, scope: { kind: PlanScopeKind; value: string }, span: { from: number; to: number }): Promise<ScopeCallerRow[]> {
  const t = trafficDayTable;
  const rows = await db
    .select({
      integration: callerOf(t.integration),
      version: t.version,
      transport: t.transport,
      requests: sql<number>`sum(${t.count})`.mapWith(Number),
      firstSeen: sql<number>`min(${t.bucketStart})`.mapWith(Number),
      lastSeen: sql<number>`max(${t.bucketStart})`.mapWith(Number),
      wouldBlock: sql<number>`sum(${t.wouldBlockCount})`.mapWith(Number),
    })
    .from(t)
    .where(and(gte(t.bucketStart, span.from), lt(t.bucketStart, span.to), servedInScope(t, scope)))
    .groupBy(callerOf(t.integration), t.version, t.transport)
    .orderBy(binaryOrder(callerOf(t.integration)), binaryOrder(t.version), binaryOrder(t.transport));
  return summarizeScopeCallers(rows);
}
