import { inArray } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { alertsTable } from './schema/index.js';

/** Deletes alerts by fingerprint (with their deliveries); answers how many went. */
export function deleteAlerts(db: Db, fingerprints: readonly string[]): number {
  if (fingerprints.length === 0) return 0;
  return db.delete(alertsTable).where(inArray(alertsTable.fingerprint, [...fingerprints])).run().changes;
}
