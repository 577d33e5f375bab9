import { lte } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { bridgeRevocationsTable } from './schema/index.js';

/** Deletes revocations whose token has expired: the bridge refuses it as expired by then. Answers rows deleted. */
export function deleteExpiredBridgeRevocations(db: Db, now: number): number {
  return db.delete(bridgeRevocationsTable).where(lte(bridgeRevocationsTable.expiresAt, now)).run().changes;
}
