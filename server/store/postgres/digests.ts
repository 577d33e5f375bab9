import { and, desc, eq, lt } from 'drizzle-orm';
import type { DigestClaim, DigestOutcome, DigestQuery, DigestRecord } from '../records/digest-record.js';
import type { PgDb } from './pg-db.js';
import { digestsTable } from './schema/index.js';

/** Inserts the claim unless a digest with its key exists; two nodes claiming at once meet at the unique index. */
export async function claimDigest(db: PgDb, claim: DigestClaim, now: number): Promise<DigestRecord | undefined> {
  const [row] = await db
    .insert(digestsTable)
    .values({ ...claim, claimedAt: now, status: 'sending', deliveries: [] })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function finishDigest(db: PgDb, id: number, outcome: DigestOutcome, now: number): Promise<DigestRecord | undefined> {
  const [row] = await db
    .update(digestsTable)
    .set({ ...outcome, finishedAt: now })
    .where(and(eq(digestsTable.id, id), eq(digestsTable.status, 'sending')))
    .returning();
  return row;
}

export async function listDigests(db: PgDb, query: DigestQuery = {}): Promise<DigestRecord[]> {
  const t = digestsTable;
  return db
    .select()
    .from(t)
    .where(query.before === undefined ? undefined : lt(t.id, query.before))
    .orderBy(desc(t.id))
    .limit(query.limit ?? 20);
}
