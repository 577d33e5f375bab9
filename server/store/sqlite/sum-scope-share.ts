import { and, gte, sql } from 'drizzle-orm';
import type { ShareBasis } from '../../protocol/work-request.js';
import type { Db } from './open-database.js';
import { trafficDayTable } from './schema/index.js';
import type { PlanScopeKind } from '../records/plan-record.js';
import { servedInScope, servedRequests } from '../served-in-scope.js';

/** Served requests on a basis since `since` (UTC day rows): all of them, and those in the scope. */
export function sumScopeShare(db: Db, scope: { kind: PlanScopeKind; value: string }, basis: ShareBasis, since: number): { inScope: number; total: number } {
  const t = trafficDayTable;
  const row = db
    .select({
      total: sql<number>`coalesce(sum(${t.count}), 0)`,
      inScope: sql<number>`coalesce(sum(case when ${servedInScope(t, scope, basis)} then ${t.count} else 0 end), 0)`,
    })
    .from(t)
    .where(and(gte(t.bucketStart, since), servedRequests(t, basis)))
    .get();
  return { inScope: row?.inScope ?? 0, total: row?.total ?? 0 };
}
