import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CONTACT_KINDS } from '../../records/caller-contact-record.js';
import { NOTICE_STAGE_KINDS, NOTICE_STATUSES } from '../../records/caller-notice-record.js';
import { plansTable } from './plans.js';

/**
 * One notice to one caller about one stage of a plan, at one threshold. The unique key is what
 * makes it once only, across restarts and across a fleet: the node whose insert takes the row sends it.
 */
export const callerNoticesTable = sqliteTable(
  'caller_notices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    integration: text('integration').notNull(),
    stage: text('stage', { enum: NOTICE_STAGE_KINDS }).notNull(),
    stageAt: integer('stage_at').notNull(),
    daysBefore: integer('days_before').notNull(),
    status: text('status', { enum: NOTICE_STATUSES }).notNull(),
    node: text('node').notNull(),
    claimedAt: integer('claimed_at').notNull(),
    finishedAt: integer('finished_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    // What the notice said of the caller's use: served work requests in scope over the plan's quiet days, and the versions.
    requests: integer('requests').notNull(),
    versions: text('versions', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (t) => [uniqueIndex('caller_notices_once_idx').on(t.planId, t.integration, t.stage, t.stageAt, t.daysBefore), index('caller_notices_integration_idx').on(t.integration, t.claimedAt)],
);

/** A contact with a caller's owner made by hand, recorded by an operator, optionally about one plan. */
export const callerContactsTable = sqliteTable(
  'caller_contacts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    integration: text('integration').notNull(),
    planId: integer('plan_id').references(() => plansTable.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CONTACT_KINDS }).notNull(),
    note: text('note').notNull(),
    at: integer('at').notNull(),
    by: text('by').notNull(),
  },
  (t) => [index('caller_contacts_integration_idx').on(t.integration, t.at)],
);
