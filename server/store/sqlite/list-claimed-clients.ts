import { and, gte, lt, sql } from 'drizzle-orm';
import type { ClaimedClientRow } from '../records/claimed-client-row.js';
import type { Db } from './open-database.js';
import { claimedClientDayTable } from './schema/index.js';

/** The unknown base's served work per claimed client on the days in [from, to), over every node, most legacy first. */
export function listClaimedClients(db: Db, span: { from: number; to: number }): ClaimedClientRow[] {
  const t = claimedClientDayTable;
  const legacy = sql<number>`sum(case when ${t.era} = 'legacy' then ${t.count} else 0 end)`;
  return db
    .select({ kind: t.kind, name: t.name, version: t.version, legacy, modern: sql<number>`sum(case when ${t.era} = 'modern' then ${t.count} else 0 end)` })
    .from(t)
    .where(and(gte(t.day, span.from), lt(t.day, span.to)))
    .groupBy(t.kind, t.name, t.version)
    .orderBy(sql`${legacy} desc`, t.kind, t.name, t.version)
    .all();
}
