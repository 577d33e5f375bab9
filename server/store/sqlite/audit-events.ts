import { and, desc, eq, lt } from 'drizzle-orm';
import type { AuditEventRecord, AuditInput, AuditQuery } from '../records/audit-event-record.js';
import type { Db } from './open-database.js';
import { auditEventsTable } from './schema/index.js';

/** Writes the records of one change at `now`; call it inside the change's transaction. */
export function insertAuditEvents(db: Db, events: readonly AuditInput[], now: number): void {
  for (const event of events) db.insert(auditEventsTable).values({ ...event, at: now }).run();
}

/** The newest records first. */
export function listAuditEvents(db: Db, query: AuditQuery): AuditEventRecord[] {
  const t = auditEventsTable;
  return db
    .select()
    .from(t)
    .where(and(query.subject === undefined ? undefined : eq(t.subject, query.subject), query.before === undefined ? undefined : lt(t.id, query.before)))
    .orderBy(desc(t.id))
    .limit(query.limit)
    .all();
}
