import { and, eq, gte, lt } from 'drizzle-orm';
import type { ShareDayRow } from '../records/share-day-row.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { shareDayTable } from './schema/index.js';

/** Client requests per UTC day (and node) by era, transport, version, outcome and request class, from the share rollup. */
export async function listShareRows(db: PgDb, from: number, to: number, node?: string): Promise<ShareDayRow[]> {
  const t = shareDayTable;
  return db
    .select()
    .from(t)
    .where(and(gte(t.day, from), lt(t.day, to), node === undefined ? undefined : eq(t.node, node)))
    .orderBy(t.day, ...[t.node, t.era, t.transport, t.version, t.outcome, t.requestClass].map(binaryOrder));
}
