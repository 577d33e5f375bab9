import { sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { bridgeRevocationsTable } from './schema/index.js';
import type { BridgeRevocationInput, BridgeRevocationRecord } from '../records/bridge-revocation-record.js';

/**
 * Revokes a bridge session; answers the stored revocation. Revoking it again keeps the first
 * revocation (its time and reason) and only ever moves its expiry later: a second revocation that
 * names a later expiry (the token, after a bare id with a guessed one) must not let the session
 * come back before its token ends.
 */
export function upsertBridgeRevocation(db: Db, input: BridgeRevocationInput, now: number): BridgeRevocationRecord {
  return db
    .insert(bridgeRevocationsTable)
    .values({ ...input, revokedAt: now })
    .onConflictDoUpdate({ target: bridgeRevocationsTable.sessionId, set: { expiresAt: sql`max(${bridgeRevocationsTable.expiresAt}, excluded.expires_at)` } })
    .returning()
    .get();
}
