import { asc } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { integrationsTable } from './schema/index.js';

export type IntegrationRecord = typeof integrationsTable.$inferSelect;

export function listIntegrations(db: Db): IntegrationRecord[] {
  return db.select().from(integrationsTable).orderBy(asc(integrationsTable.key)).all();
}
