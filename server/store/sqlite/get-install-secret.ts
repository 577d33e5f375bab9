import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { settingsTable } from './schema/index.js';

const KEY = 'install-secret';

/**
 * The per-install secret credential fingerprints are keyed with, created on first use. Kept in
 * the database so fingerprints stay stable across restarts and differ between installs.
 */
export function getInstallSecret(db: Db): string {
  const existing = db.select().from(settingsTable).where(eq(settingsTable.key, KEY)).get();
  if (existing !== undefined) return existing.value;
  const value = randomBytes(32).toString('base64url');
  db.insert(settingsTable).values({ key: KEY, value }).onConflictDoNothing().run();
  return db.select().from(settingsTable).where(eq(settingsTable.key, KEY)).get()?.value ?? value;
}
