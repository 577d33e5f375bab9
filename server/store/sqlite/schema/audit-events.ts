import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { AUDIT_ACTIONS } from '../../records/audit-event-record.js';

/** One change, written in the change's own transaction: who, when, what, and the fields before and after. */
export const auditEventsTable = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at').notNull(),
    actor: text('actor').notNull(), // token:<name>, admin token, api (no admin token), config file, command line (<user>)
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    subject: text('subject').notNull(), // plan:<id>, pause:<id>, bridge-session:<id>, integration:<key>
    before: text('before', { mode: 'json' }).$type<Record<string, unknown>>(), // the fields that changed, as they were; null for a creation
    after: text('after', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_events_at_idx').on(t.at), index('audit_events_subject_idx').on(t.subject, t.at)],
);
