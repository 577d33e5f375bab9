import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * What the audit trail records, one value per kind of change an operator (or the config file) makes:
 * - plan.create, plan.update: a plan made, or any of its fields changed (brownouts and exemptions included);
 * - plan.archive, plan.restore: a plan archived (deleted through the API), or back in the config file;
 * - pause.start, pause.end: a pause of a plan's refusals begun, or ended early (resumed, or replaced by a new one);
 * - bridge.revoke: a legacy-bridge session revoked, or its revocation made to last longer;
 * - integration.update: what operators know about a caller (name, owner, contact, status, notes) changed;
 * - notice.send: a notice to a caller delivered or failed (by the node that sent it);
 * - contact.record: a contact made by hand (a call, a ticket) recorded for a caller.
 */
export const AUDIT_ACTIONS = ['plan.create', 'plan.update', 'plan.archive', 'plan.restore', 'pause.start', 'pause.end', 'bridge.revoke', 'integration.update', 'notice.send', 'contact.record'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

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
