import { callerOf } from '../caller-of.js';
import { and, gte, lt, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { trafficDayTable } from './schema/index.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { servedInScope } from '../served-in-scope.js';
import { summarizeScopeCallers } from '../summarize-scope-callers.js';
import type { ScopeCallerRow } from '../records/scope-caller-row.js';

/**
 * Every caller with served work requests in the scope on the day rows starting in [from, to):
 * how many, its first and last days, and the versions and transports they came by.
 */
export function listScopeCallers(db: Db, scope: { kind: PlanScopeKind; value: string }, span: { from: number; to: number }): ScopeCallerRow[] {
  const t = trafficDayTable;
  const rows = db
    .select({
      integration: callerOf(t.integration),
      version: t.version,
      transport: t.transport,
      requests: sql<number>`sum(${t.count})`,
      firstSeen: sql<number>`min(${t.bucketStart})`,
      lastSeen: sql<number>`max(${t.bucketStart})`,
      wouldBlock: sql<number>`sum(${t.wouldBlockCount})`,
    })
    .from(t)
    .where(and(gte(t.bucketStart, span.from), lt(t.bucketStart, span.to), servedInScope(t, scope)))
    .groupBy(callerOf(t.integration), t.version, t.transport)
    .all();
  return summarizeScopeCallers(rows);
}
