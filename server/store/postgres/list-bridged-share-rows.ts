import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { requestClassOf, servedRequests } from '../served-in-scope.js';
import type { BridgedShareRow } from '../records/share-day-row.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { trafficDayTable } from './schema/index.js';

/**
 * Served client requests mcp-sunset's legacy bridge answered (reason `bridge`), per UTC day by era,
 * transport, version, outcome and request class, of one node when given. From the day traffic
 * table, as on SQLite: the share rollup does not keep the reason.
 */
export async function listBridgedShareRows(db: PgDb, from: number, to: number, node?: string): Promise<BridgedShareRow[]> {
  const t = trafficDayTable;
  const requestClass = requestClassOf(t.method);
  return db
    .select({ day: t.bucketStart, era: t.era, transport: t.transport, version: t.version, outcome: t.outcome, requestClass, count: sql<number>`sum(${t.count})`.mapWith(Number) })
    .from(t)
    .where(and(gte(t.bucketStart, from), lt(t.bucketStart, to), sql`${t.reason} = 'bridge'`, servedRequests(t, 'all-requests'), node === undefined ? undefined : eq(t.node, node)))
    .groupBy(t.bucketStart, t.era, t.transport, t.version, t.outcome, requestClass)
    .orderBy(t.bucketStart, ...[t.era, t.transport, t.version, t.outcome].map(binaryOrder), requestClass);
}
