import { eq } from 'drizzle-orm';
import type { IntegrationRecord } from '../records/integration-record.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable } from './schema/index.js';

export async function getIntegration(db: PgDb, key: string): Promise<IntegrationRecord | undefined> {
  const [row] = await db.select().from(integrationsTable).where(eq(integrationsTable.key, key));
  return row;
}
