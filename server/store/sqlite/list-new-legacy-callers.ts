import { eq, gte, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { integrationsTable, legacyCallerDayTable } from './schema/index.js';

export interface NewLegacyCaller {
  integration: string;
  /** The first UTC day the legacy path served the caller work. */
  firstDay: number;
  displayName: string | null;
  clientInfoName: string | null;
}

export interface NewLegacyCallers {
  /** The first UTC day the legacy path served any caller work; null before it did. */
  meteredSince: number | null;
  /** Callers whose first day of served legacy work is `sinceDay` or later, earliest first. */
  callers: NewLegacyCaller[];
}

/** Callers first served legacy work since `sinceDay`, with what the registry knows of them. */
export function listNewLegacyCallers(db: Db, sinceDay: number): NewLegacyCallers {
  const t = legacyCallerDayTable;
  const firstDay = sql<number>`min(${t.day})`;
  const meteredSince = db.select({ day: firstDay }).from(t).get()?.day ?? null;
  const callers = db
    .select({ integration: t.integration, firstDay, displayName: integrationsTable.displayName, clientInfoName: integrationsTable.clientInfoName })
    .from(t)
    .leftJoin(integrationsTable, eq(integrationsTable.key, t.integration))
    .groupBy(t.integration)
    .having(gte(firstDay, sinceDay))
    .orderBy(firstDay, t.integration)
    .all();
  return { meteredSince, callers };
}
