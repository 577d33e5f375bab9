import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { CONTACT_KINDS } from '../../records/caller-contact-record.js';
import { NOTICE_STAGE_KINDS, NOTICE_STATUSES } from '../../records/caller-notice-record.js';
import { plansTable } from './plans.js';

/** The notice tables of the SQLite schema, on Postgres. */
export const callerNoticesTable = pgTable(
  'caller_notices',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    integration: text('integration').notNull(),
    stage: text('stage', { enum: NOTICE_STAGE_KINDS }).notNull(),
    stageAt: bigint('stage_at', { mode: 'number' }).notNull(),
    daysBefore: integer('days_before').notNull(),
    status: text('status', { enum: NOTICE_STATUSES }).notNull(),
    node: text('node').notNull(),
    claimedAt: bigint('claimed_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    requests: bigint('requests', { mode: 'number' }).notNull(),
    versions: jsonb('versions').$type<string[]>().notNull(),
  },
  (t) => [uniqueIndex('caller_notices_once_idx').on(t.planId, t.integration, t.stage, t.stageAt, t.daysBefore), index('caller_notices_integration_idx').on(t.integration, t.claimedAt)],
);

export const callerContactsTable = pgTable(
  'caller_contacts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    integration: text('integration').notNull(),
    planId: integer('plan_id').references(() => plansTable.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CONTACT_KINDS }).notNull(),
    note: text('note').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
    by: text('by').notNull(),
  },
  (t) => [index('caller_contacts_integration_idx').on(t.integration, t.at)],
);
