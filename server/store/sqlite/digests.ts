import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { digestsTable } from './schema/index.js';
import type { DigestClaim, DigestOutcome, DigestQuery, DigestRecord } from '../records/digest-record.js';

/** Inserts the claim unless a digest with its key exists; answers the row when this call inserted it. */
export function claimDigest(db: Db, claim: DigestClaim, now: number): DigestRecord | undefined {
  return db
    .insert(digestsTable)
    .values({ ...claim, claimedAt: now, status: 'sending', deliveries: [] })
    .onConflictDoNothing()
    .returning()
    .get();
}

/** Records how a claimed digest's delivery went; undefined when it was not `sending`. */
export function finishDigest(db: Db, id: number, outcome: DigestOutcome, now: number): DigestRecord | undefined {
  return db
    .update(digestsTable)
    .set({ ...outcome, finishedAt: now })
    .where(and(eq(digestsTable.id, id), eq(digestsTable.status, 'sending')))
    .returning()
    .get();
}

export function listDigests(db: Db, query: DigestQuery = {}): DigestRecord[] {
  const t = digestsTable;
  return db
    .select()
    .from(t)
    .where(query.before === undefined ? undefined : lt(t.id, query.before))
    .orderBy(desc(t.id))
    .limit(query.limit ?? 20)
    .all();
}
