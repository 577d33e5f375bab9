import { asc, gt } from 'drizzle-orm';
import type { BridgeRevocationRecord } from '../records/bridge-revocation-record.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { bridgeRevocationsTable } from './schema/index.js';

/** The revocations still in force at `now` (their token not yet expired), oldest first. */
export async function listBridgeRevocations(db: PgDb, now: number): Promise<BridgeRevocationRecord[]> {
  return db
    .select()
    .from(bridgeRevocationsTable)
    .where(gt(bridgeRevocationsTable.expiresAt, now))
    .orderBy(asc(bridgeRevocationsTable.revokedAt), binaryOrder(bridgeRevocationsTable.sessionId));
}
