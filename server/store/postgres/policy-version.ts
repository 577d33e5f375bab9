import { eq, inArray, sql } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { settingsTable } from './schema/index.js';

const KEY = 'policy-version';
const CHANGED_AT_KEY = 'policy-version-at';

/** The version of the stored policy: up by one with every change to a plan, in the change's own transaction. */
export async function getPolicyVersion(db: PgDb): Promise<number> {
  const [row] = await db.select().from(settingsTable).where(eq(settingsTable.key, KEY));
  return row === undefined ? 0 : Number(row.value);
}

/** The stored version and when it last moved (null: never, or before that time was kept). */
export async function getPolicyVersionChange(db: PgDb): Promise<{ version: number; changedAt: number | null }> {
  const rows = await db.select().from(settingsTable).where(inArray(settingsTable.key, [KEY, CHANGED_AT_KEY]));
  const value = (key: string) => rows.find((row) => row.key === key)?.value;
  const changedAt = value(CHANGED_AT_KEY);
  return { version: Number(value(KEY) ?? 0), changedAt: changedAt === undefined ? null : Number(changedAt) };
}

/**
 * Counts one change to the plans, made at `now`; call it inside the transaction that makes the
 * change. The upsert increments the row it locks, so nodes changing plans at once each get a number.
 */
export async function bumpPolicyVersion(db: PgDb, now: number): Promise<number> {
  await db
    .insert(settingsTable)
    .values({ key: KEY, value: '1' })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value: sql`cast(cast(${settingsTable.value} as bigint) + 1 as text)` } });
  // Nodes get a grace period from this moment to pick the change up before they count as lagging.
  await db
    .insert(settingsTable)
    .values({ key: CHANGED_AT_KEY, value: String(now) })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value: String(now) } });
  return getPolicyVersion(db);
}
