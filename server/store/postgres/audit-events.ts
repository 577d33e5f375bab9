import { and, desc, eq, lt } from 'drizzle-orm';
import type { AuditEventRecord, AuditInput, AuditQuery } from '../records/audit-event-record.js';
import type { PgDb } from './pg-db.js';
import { auditEventsTable } from './schema/index.js';

/** Writes the records of one change at `now`; call it inside the change's transaction. */
export async function insertAuditEvents(db: PgDb, events: readonly AuditInput[], now: number): Promise<void> {
  if (events.length > 0) await db.insert(auditEventsTable).values(events.map((event) => ({ ...event, at: now })));
}

/** The newest records first. */
export async function listAuditEvents(db: PgDb, query: AuditQuery): Promise<AuditEventRecord[]> {
  const t = auditEventsTable;
  return db
    .select()
    .from(t)
    .where(and(query.subject === undefined ? undefined : eq(t.subject, query.subject), query.before === undefined ? undefined : lt(t.id, query.before)))
    .orderBy(desc(t.id))
    .limit(query.limit);
}
