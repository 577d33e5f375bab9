import { sql } from 'drizzle-orm';
import type { BridgeRevocationInput, BridgeRevocationRecord } from '../records/bridge-revocation-record.js';
import type { PgDb } from './pg-db.js';
import { bridgeRevocationsTable } from './schema/index.js';

/** Revokes a bridge session; again, it keeps the first revocation and only moves its expiry later. */
export async function upsertBridgeRevocation(db: PgDb, input: BridgeRevocationInput, now: number): Promise<BridgeRevocationRecord> {
  const [stored] = await db
    .insert(bridgeRevocationsTable)
    .values({ ...input, revokedAt: now })
    .onConflictDoUpdate({ target: bridgeRevocationsTable.sessionId, set: { expiresAt: sql`greatest(${bridgeRevocationsTable.expiresAt}, excluded.expires_at)` } })
    .returning();
  return stored!;
}
