import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { plansTable } from './plans.js';

/**
 * A plan's refusals stopped for a while: between `started_at` and its end (`resumed_at` when resumed
 * early, else `ends_at`) every request the plan would refuse is let through and counted as
 * would-block. Rows are kept after they end, so the plan's timeline shows every pause it had.
 */
export const planPausesTable = sqliteTable(
  'plan_pauses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    startedAt: integer('started_at').notNull(),
    endsAt: integer('ends_at').notNull(), // the end it was given; enforcement resumes by itself then
    resumedAt: integer('resumed_at'), // set when it was ended early (resumed, or replaced by a new pause)
    pausedBy: text('paused_by').notNull(),
    resumedBy: text('resumed_by'),
  },
  (t) => [index('plan_pauses_plan_idx').on(t.planId, t.startedAt), index('plan_pauses_ends_at_idx').on(t.endsAt)],
);
