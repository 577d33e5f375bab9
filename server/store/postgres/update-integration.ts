import { eq } from 'drizzle-orm';
import type { IntegrationChanges, IntegrationRecord } from '../records/integration-record.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable } from './schema/index.js';

/** Saves what operators edit; answers undefined for a caller never seen. */
export async function updateIntegration(db: PgDb, key: string, changes: IntegrationChanges, now: number): Promise<IntegrationRecord | undefined> {
  const [row] = await db.update(integrationsTable).set({ ...changes, updatedAt: now }).where(eq(integrationsTable.key, key)).returning();
  return row;
}
