import { callerOf } from '../caller-of.js';
import { eq, gte, sql } from 'drizzle-orm';
import type { NewLegacyCallers } from '../records/new-legacy-callers.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable, legacyCallerDayTable } from './schema/index.js';

/** Callers first served legacy work since `sinceDay`, with what the registry knows of them. */
export async function listNewLegacyCallers(db: PgDb, sinceDay: number): Promise<NewLegacyCallers> {
  const t = legacyCallerDayTable;
  const firstDay = sql<number>`min(${t.day})`.mapWith(Number);
  const [first] = await db.select({ day: firstDay }).from(t);
  const callers = await db
    .select({ integration: callerOf(t.integration), firstDay, displayName: integrationsTable.displayName, clientInfoName: integrationsTable.clientInfoName })
    .from(t)
    .leftJoin(integrationsTable, eq(integrationsTable.key, callerOf(t.integration)))
    .groupBy(callerOf(t.integration), integrationsTable.displayName, integrationsTable.clientInfoName)
    .having(gte(firstDay, sinceDay))
    .orderBy(firstDay, binaryOrder(callerOf(t.integration)));
  return { meteredSince: first?.day ?? null, callers };
}
