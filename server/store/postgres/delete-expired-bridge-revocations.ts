import { lte } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { bridgeRevocationsTable } from './schema/index.js';

/** Deletes revocations whose token has expired: the bridge refuses it as expired by then. Answers rows deleted. */
export async function deleteExpiredBridgeRevocations(db: PgDb, now: number): Promise<number> {
  return (await db.delete(bridgeRevocationsTable).where(lte(bridgeRevocationsTable.expiresAt, now))).rowCount ?? 0;
}
