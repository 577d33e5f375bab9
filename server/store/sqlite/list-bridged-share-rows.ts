import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { requestClassOf, servedRequests } from '../served-in-scope.js';
import type { Db } from './open-database.js';
import { trafficDayTable } from './schema/index.js';
import type { BridgedShareRow } from '../records/share-day-row.js';

/**
 * Served client requests mcp-sunset's legacy bridge answered (reason `bridge`), per UTC day by era,
 * transport, version, outcome and request class, of one node when given: the bridged part of the
 * share rollup's rows. The rollup does not keep the reason, so these come from the day traffic
 * table, kept forever and written in the same transaction; its primary key leads with the day and
 * holds the reason and kind. The reason is written as a literal so the planner can use the partial
 * index that holds only the bridge's rows (a bound parameter would not prove it matches).
 */
export function listBridgedShareRows(db: Db, from: number, to: number, node?: string): BridgedShareRow[] {
  const t = trafficDayTable;
  const requestClass = requestClassOf(t.method);
  return db
    .select({ day: t.bucketStart, era: t.era, transport: t.transport, version: t.version, outcome: t.outcome, requestClass, count: sql<number>`sum(${t.count})` })
    .from(t)
    .where(and(gte(t.bucketStart, from), lt(t.bucketStart, to), sql`${t.reason} = 'bridge'`, servedRequests(t, 'all-requests'), node === undefined ? undefined : eq(t.node, node)))
    .groupBy(t.bucketStart, t.era, t.transport, t.version, t.outcome, requestClass)
    .orderBy(t.bucketStart)
    .all();
}
