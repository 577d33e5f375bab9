import { and, gte, inArray } from 'drizzle-orm';
import { rankServedVersions } from '../rank-served-versions.js';
import type { PgDb } from './pg-db.js';
import { shareDayTable } from './schema/index.js';

/** Protocol versions the server answered client requests under since `since` (UTC day rows), most used first. */
export async function listServedVersions(db: PgDb, since: number): Promise<string[]> {
  const t = shareDayTable;
  const rows = await db
    .select({ version: t.version, count: t.count })
    .from(t)
    .where(and(gte(t.day, since), inArray(t.outcome, ['served', 'served-as-legacy'])));
  return rankServedVersions(rows);
}
