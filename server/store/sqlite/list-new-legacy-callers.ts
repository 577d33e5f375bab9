import { callerOf } from '../caller-of.js';
import { eq, gte, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { integrationsTable, legacyCallerDayTable } from './schema/index.js';
import type { NewLegacyCallers } from '../records/new-legacy-callers.js';

/** Callers first served legacy work since `sinceDay`, with what the registry knows of them. */
export function listNewLegacyCallers(db: Db, sinceDay: number): NewLegacyCallers {
  const t = legacyCallerDayTable;
  const firstDay = sql<number>`min(${t.day})`;
  const meteredSince = db.select({ day: firstDay }).from(t).get()?.day ?? null;
  const callers = db
    .select({ integration: callerOf(t.integration), firstDay, displayName: integrationsTable.displayName, clientInfoName: integrationsTable.clientInfoName })
    .from(t)
    .leftJoin(integrationsTable, eq(integrationsTable.key, callerOf(t.integration)))
    .groupBy(callerOf(t.integration))
    .having(gte(firstDay, sinceDay))
    .orderBy(firstDay, callerOf(t.integration))
    .all();
  return { meteredSince, callers };
}
