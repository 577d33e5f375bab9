import { inArray } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { alertsTable } from './schema/index.js';

/** Deletes alerts by fingerprint (with their deliveries); answers how many went. */
export async function deleteAlerts(db: PgDb, fingerprints: readonly string[]): Promise<number> {
  if (fingerprints.length === 0) return 0;
  const result = await db.delete(alertsTable).where(inArray(alertsTable.fingerprint, [...fingerprints]));
  return result.rowCount ?? 0;
}
