import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { settingsTable } from './schema/index.js';

const KEY = 'install-secret';

/**
 * The per-install secret credential fingerprints are keyed with, created on first use. The first
 * writer wins, so every node of a fleet keys its fingerprints with the same secret.
 */
export async function getInstallSecret(db: PgDb): Promise<string> {
  const read = async () => (await db.select().from(settingsTable).where(eq(settingsTable.key, KEY)))[0]?.value;
  const existing = await read();
  if (existing !== undefined) return existing;
  const value = randomBytes(32).toString('base64url');
  await db.insert(settingsTable).values({ key: KEY, value }).onConflictDoNothing();
  return (await read()) ?? value;
}
