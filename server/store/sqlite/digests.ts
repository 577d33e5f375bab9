import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { digestsTable, type DigestDelivery } from './schema/index.js';

export type DigestRecord = typeof digestsTable.$inferSelect;

/** A digest a node means to send; the store answers it only to the node whose insert takes its key. */
export type DigestClaim = Pick<DigestRecord, 'key' | 'kind' | 'node' | 'requestedBy' | 'periodFrom' | 'periodTo' | 'summary' | 'content'>;

export interface DigestOutcome {
  status: 'delivered' | 'failed' | 'no-channels';
  deliveries: DigestDelivery[];
}

export interface DigestQuery {
  /** Newest first, at most this many (default 20). */
  limit?: number;
  /** Only those claimed before this id: the next page. */
  before?: number;
}

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
