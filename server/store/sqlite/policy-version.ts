import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { settingsTable } from './schema/index.js';

const KEY = 'policy-version';
const CHANGED_AT_KEY = 'policy-version-at';

/**
 * The version of the stored policy: it goes up by one with every change to a plan, in the change's
 * own transaction, so every node reading one store agrees on which policy a number names.
 */
export function getPolicyVersion(db: Db): number {
  const row = db.select().from(settingsTable).where(eq(settingsTable.key, KEY)).get();
  return row === undefined ? 0 : Number(row.value);
}

/** The stored version and when it last moved (null: never, or before that time was kept). */
export function getPolicyVersionChange(db: Db): { version: number; changedAt: number | null } {
  const rows = db.select().from(settingsTable).where(inArray(settingsTable.key, [KEY, CHANGED_AT_KEY])).all();
  const value = (key: string) => rows.find((row) => row.key === key)?.value;
  const changedAt = value(CHANGED_AT_KEY);
  return { version: Number(value(KEY) ?? 0), changedAt: changedAt === undefined ? null : Number(changedAt) };
}

/** Counts one change to the plans, made at `now`; call it inside the transaction that makes the change. */
export function bumpPolicyVersion(db: Db, now: number): number {
  db.insert(settingsTable)
    .values({ key: KEY, value: '1' })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value: sql`cast(cast(${settingsTable.value} as integer) + 1 as text)` } })
    .run();
  // Nodes get a grace period from this moment to pick the change up before they count as lagging.
  db.insert(settingsTable)
    .values({ key: CHANGED_AT_KEY, value: String(now) })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value: String(now) } })
    .run();
  return getPolicyVersion(db);
}
