import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { contactAudit, noticeAudit } from '../audit-changes.js';
import type { CallerContactRecord, ContactInput } from '../records/caller-contact-record.js';
import type { CallerNoticeRecord, NoticeClaim, NoticeOutcome, NoticeQuery } from '../records/caller-notice-record.js';
import { insertAuditEvents } from './audit-events.js';
import type { PgDb } from './pg-db.js';
import { callerContactsTable, callerNoticesTable } from './schema/index.js';

/** Inserts each claim unless its notice exists already; answers those this call inserted, which are this node's to send. */
export async function claimNotices(db: PgDb, claims: readonly NoticeClaim[], now: number): Promise<CallerNoticeRecord[]> {
  if (claims.length === 0) return [];
  // One statement: two nodes claiming at once meet at the unique index, and each row goes to one of them.
  return db
    .insert(callerNoticesTable)
    .values(claims.map((claim) => ({ ...claim, claimedAt: now, finishedAt: claim.status === 'skipped' ? now : null })))
    .onConflictDoNothing()
    .returning();
}

export async function finishNotice(db: PgDb, id: number, outcome: NoticeOutcome, now: number): Promise<CallerNoticeRecord | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(callerNoticesTable).set({ ...outcome, finishedAt: now }).where(and(eq(callerNoticesTable.id, id), eq(callerNoticesTable.status, 'sending'))).returning();
    if (row !== undefined) await insertAuditEvents(tx, [noticeAudit(row)], now);
    return row;
  });
}

export async function listCallerNotices(db: PgDb, query: NoticeQuery = {}): Promise<CallerNoticeRecord[]> {
  const t = callerNoticesTable;
  return db
    .select()
    .from(t)
    .where(and(query.planId === undefined ? undefined : eq(t.planId, query.planId), query.integrations === undefined ? undefined : inArray(t.integration, [...query.integrations])))
    .orderBy(desc(t.claimedAt), desc(t.id));
}

export async function insertCallerContact(db: PgDb, input: ContactInput, now: number, by: string): Promise<CallerContactRecord> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(callerContactsTable).values({ ...input, at: now, by }).returning();
    await insertAuditEvents(tx, [contactAudit(row!)], now);
    return row!;
  });
}

export async function listCallerContacts(db: PgDb, integrations?: readonly string[]): Promise<CallerContactRecord[]> {
  const t = callerContactsTable;
  return db
    .select()
    .from(t)
    .where(integrations === undefined ? undefined : inArray(t.integration, [...integrations]))
    .orderBy(desc(t.at), asc(t.id));
}
