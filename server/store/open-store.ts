import { isPostgresLocation } from './is-postgres-location.js';
import { createSqliteStore } from './sqlite/create-sqlite-store.js';
import { openDatabase } from './sqlite/open-database.js';
import type { Store } from './store.js';

/**
 * Opens the store `--db` names, with its migrations applied: a `postgres://` URL is the shared
 * store of a fleet, anything else a SQLite file of one node.
 */
export async function openStore(location: string): Promise<Store> {
  if (isPostgresLocation(location)) {
    const { openPostgresStore } = await import('./postgres/open-postgres-store.js');
    return openPostgresStore(location);
  }
  return createSqliteStore(openDatabase(location));
}
