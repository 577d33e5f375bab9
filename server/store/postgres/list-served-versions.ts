import { and, gte, inArray } from 'drizzle-orm';
import { NO_VERSION, OVERFLOW_LABEL } from '../../tally/tally-cell.js';
import type { PgDb } from './pg-db.js';
import { shareDayTable } from './schema/index.js';

/** Protocol versions the server answered client requests under since `since` (UTC day rows), most used first. */
export async function listServedVersions(db: PgDb, since: number): Promise<string[]> {
  const t = shareDayTable;
  const rows = await db
    .select({ version: t.version, count: t.count })
    .from(t)
    .where(and(gte(t.day, since), inArray(t.outcome, ['served', 'served-as-legacy'])));
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (row.version === NO_VERSION || row.version === OVERFLOW_LABEL) continue;
    totals.set(row.version, (totals.get(row.version) ?? 0) + row.count);
  }
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([version]) => version);
}
