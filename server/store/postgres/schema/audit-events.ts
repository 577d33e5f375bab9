import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS } from '../../records/audit-event-record.js';

/** The audit trail of the SQLite schema, on Postgres. */
export const auditEventsTable = pgTable(
  'audit_events',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    at: bigint('at', { mode: 'number' }).notNull(),
    actor: text('actor').notNull(),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    subject: text('subject').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_events_at_idx').on(t.at), index('audit_events_subject_idx').on(t.subject, t.at)],
);
