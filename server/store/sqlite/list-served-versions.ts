import { and, gte, inArray } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { shareDayTable } from './schema/index.js';
import { rankServedVersions } from '../rank-served-versions.js';

/** Protocol versions the server answered client requests under since `since` (UTC day rows), most used first. */
export function listServedVersions(db: Db, since: number): string[] {
  const t = shareDayTable;
  const rows = db
    .select({ version: t.version, count: t.count })
    .from(t)
    .where(and(gte(t.day, since), inArray(t.outcome, ['served', 'served-as-legacy'])))
    .all();
  return rankServedVersions(rows);
}
