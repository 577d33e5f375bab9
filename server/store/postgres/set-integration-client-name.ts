import { eq } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { integrationsTable } from './schema/index.js';

/**
 * Records a fetch of a caller's Client ID Metadata Document at `at`: the name it gave, or, for a
 * fetch that gave none (null), only the time, so an earlier name stays. Answers whether the caller exists.
 */
export async function setIntegrationClientName(db: PgDb, key: string, name: string | null, at: number): Promise<boolean> {
  const t = integrationsTable;
  const result = await db.update(t).set(name === null ? { clientNameAt: at } : { clientName: name, clientNameAt: at }).where(eq(t.key, key));
  return (result.rowCount ?? 0) > 0;
}
