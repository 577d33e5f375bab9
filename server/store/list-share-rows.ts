import { and, gte, lt } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { shareDayTable } from './schema/index.js';

export interface ShareDayRow {
  day: number;
  era: string;
  transport: string;
  version: string;
  outcome: string;
  discover: boolean;
  count: number;
}

/** Requests per UTC day by era, transport, version and outcome, from the share rollup. */
export function listShareRows(db: Db, from: number, to: number): ShareDayRow[] {
  return db
    .select()
    .from(shareDayTable)
    .where(and(gte(shareDayTable.day, from), lt(shareDayTable.day, to)))
    .orderBy(shareDayTable.day)
    .all();
}
