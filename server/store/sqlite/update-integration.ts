import { eq } from 'drizzle-orm';
import { getIntegration } from './get-integration.js';
import type { IntegrationChanges, IntegrationRecord } from '../records/integration-record.js';
import type { Db } from './open-database.js';
import { integrationsTable } from './schema/index.js';

/** Saves what operators edit; answers undefined for a caller never seen. */
export function updateIntegration(db: Db, key: string, changes: IntegrationChanges, now: number): IntegrationRecord | undefined {
  const result = db.update(integrationsTable).set({ ...changes, updatedAt: now }).where(eq(integrationsTable.key, key)).run();
  return result.changes === 0 ? undefined : getIntegration(db, key);
}
