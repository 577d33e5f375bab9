import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { insertAuditEvents } from './audit-events.js';
import type { Db } from './open-database.js';
import { callerContactsTable, callerNoticesTable } from './schema/index.js';
import { contactAudit, noticeAudit } from '../audit-changes.js';
import type { CallerContactRecord, ContactInput } from '../records/caller-contact-record.js';
import type { CallerNoticeRecord, NoticeClaim, NoticeOutcome, NoticeQuery } from '../records/caller-notice-record.js';

/** Inserts each claim unless its notice exists already; answers those this call inserted, which are this node's to send. */
export function claimNotices(db: Db, claims: readonly NoticeClaim[], now: number): CallerNoticeRecord[] {
  return db.transaction(() =>
    claims.flatMap((claim) => db.insert(callerNoticesTable).values({ ...claim, claimedAt: now, finishedAt: claim.status === 'skipped' ? now : null }).onConflictDoNothing().returning().all()),
  );
}

/** Records how a claimed notice's delivery went, with its audit record. */
export function finishNotice(db: Db, id: number, outcome: NoticeOutcome, now: number): CallerNoticeRecord | undefined {
  return db.transaction(() => {
    const row = db.update(callerNoticesTable).set({ ...outcome, finishedAt: now }).where(and(eq(callerNoticesTable.id, id), eq(callerNoticesTable.status, 'sending'))).returning().get();
    if (row !== undefined) insertAuditEvents(db, [noticeAudit(row)], now);
    return row;
  });
}

/** Notices, newest first: of one plan, of some callers, or all. */
export function listCallerNotices(db: Db, query: NoticeQuery = {}): CallerNoticeRecord[] {
  const t = callerNoticesTable;
  return db
    .select()
    .from(t)
    .where(and(query.planId === undefined ? undefined : eq(t.planId, query.planId), query.integrations === undefined ? undefined : inArray(t.integration, [...query.integrations])))
    .orderBy(desc(t.claimedAt), desc(t.id))
    .all();
}

/** Records a contact made by hand, with its audit record. */
export function insertCallerContact(db: Db, input: ContactInput, now: number, by: string): CallerContactRecord {
  return db.transaction(() => {
    const row = db.insert(callerContactsTable).values({ ...input, at: now, by }).returning().get();
    insertAuditEvents(db, [contactAudit(row)], now);
    return row;
  });
}

/** Contacts, newest first, of some callers or all. */
export function listCallerContacts(db: Db, integrations?: readonly string[]): CallerContactRecord[] {
  const t = callerContactsTable;
  return db
    .select()
    .from(t)
    .where(integrations === undefined ? undefined : inArray(t.integration, [...integrations]))
    .orderBy(desc(t.at), asc(t.id))
    .all();
}
