import { eq, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { settingsTable } from './schema/index.js';

const KEY = 'policy-version';

/**
 * The version of the stored policy: it goes up by one with every change to a plan, in the change's
 * own transaction, so every node reading one store agrees on which policy a number names.
 */
export function getPolicyVersion(db: Db): number {
  const row = db.select().from(settingsTable).where(eq(settingsTable.key, KEY)).get();
  return row === undefined ? 0 : Number(row.value);
}

/** Counts one change to the plans; call it inside the transaction that makes the change. */
export function bumpPolicyVersion(db: Db): number {
  db.insert(settingsTable)
    .values({ key: KEY, value: '1' })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value: sql`cast(cast(${settingsTable.value} as integer) + 1 as text)` } })
    .run();
  return getPolicyVersion(db);
}
