import { and, eq, gte, lt } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { shareDayTable } from './schema/index.js';
import type { ShareDayRow } from '../records/share-day-row.js';

/** Client requests per UTC day by era, transport, version, outcome and request class (of one node when given), from the share rollup. */
export function listShareRows(db: Db, from: number, to: number, node?: string): ShareDayRow[] {
  return db
    .select()
    .from(shareDayTable)
    .where(and(gte(shareDayTable.day, from), lt(shareDayTable.day, to), node === undefined ? undefined : eq(shareDayTable.node, node)))
    .orderBy(shareDayTable.day)
    .all();
}
