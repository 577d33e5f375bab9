import { eq } from 'drizzle-orm';
import { getIntegration } from './get-integration.js';
import type { IntegrationRecord } from './list-integrations.js';
import type { Db } from './open-database.js';
import { integrationsTable, type IntegrationStatus } from './schema/index.js';

export interface IntegrationChanges {
  displayName?: string | null;
  owner?: string | null;
  contact?: string | null;
  status?: IntegrationStatus;
  notes?: string | null;
}

/** Saves what operators edit; answers undefined for a caller never seen. */
export function updateIntegration(db: Db, key: string, changes: IntegrationChanges, now: number): IntegrationRecord | undefined {
  const result = db.update(integrationsTable).set({ ...changes, updatedAt: now }).where(eq(integrationsTable.key, key)).run();
  return result.changes === 0 ? undefined : getIntegration(db, key);
}
