import { eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { integrationsTable } from './schema/index.js';

/**
 * Records a fetch of a caller's Client ID Metadata Document at `at`: the name it gave, or, for a
 * fetch that gave none (null), only the time, so an earlier name stays. Answers whether the caller exists.
 */
export function setIntegrationClientName(db: Db, key: string, name: string | null, at: number): boolean {
  const t = integrationsTable;
  return db.update(t).set(name === null ? { clientNameAt: at } : { clientName: name, clientNameAt: at }).where(eq(t.key, key)).run().changes > 0;
}
