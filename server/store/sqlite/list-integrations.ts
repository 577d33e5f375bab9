import { asc } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { integrationsTable } from './schema/index.js';
import type { IntegrationRecord } from '../records/integration-record.js';

export function listIntegrations(db: Db): IntegrationRecord[] {
  return db.select().from(integrationsTable).orderBy(asc(integrationsTable.key)).all();
}
