import { eq } from 'drizzle-orm';
import type { IntegrationRecord } from '../records/integration-record.js';
import type { Db } from './open-database.js';
import { integrationsTable } from './schema/index.js';

export function getIntegration(db: Db, key: string): IntegrationRecord | undefined {
  return db.select().from(integrationsTable).where(eq(integrationsTable.key, key)).get();
}
