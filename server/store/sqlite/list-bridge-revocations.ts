import { asc, gt } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { bridgeRevocationsTable } from './schema/index.js';
import type { BridgeRevocationRecord } from '../records/bridge-revocation-record.js';

/** The revocations still in force at `now` (their token not yet expired), oldest first. */
export function listBridgeRevocations(db: Db, now: number): BridgeRevocationRecord[] {
  return db
    .select()
    .from(bridgeRevocationsTable)
    .where(gt(bridgeRevocationsTable.expiresAt, now))
    .orderBy(asc(bridgeRevocationsTable.revokedAt), asc(bridgeRevocationsTable.sessionId))
    .all();
}
