import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { plansTable } from './plans.js';

/** The plan pauses table of the SQLite schema, on Postgres. */
export const planPausesTable = pgTable(
  'plan_pauses',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    startedAt: bigint('started_at', { mode: 'number' }).notNull(),
    endsAt: bigint('ends_at', { mode: 'number' }).notNull(),
    resumedAt: bigint('resumed_at', { mode: 'number' }),
    pausedBy: text('paused_by').notNull(),
    resumedBy: text('resumed_by'),
  },
  (t) => [index('plan_pauses_plan_idx').on(t.planId, t.startedAt), index('plan_pauses_ends_at_idx').on(t.endsAt)],
);
