import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { SHARE_BASES } from '../../protocol/work-request.js';

export const PLAN_SCOPE_KINDS = ['era', 'transport', 'version'] as const;
export type PlanScopeKind = (typeof PLAN_SCOPE_KINDS)[number];

/** A published retirement of the legacy era, the HTTP+SSE transport, or one protocol version. */
export const plansTable = sqliteTable('plans', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  scopeKind: text('scope_kind', { enum: PLAN_SCOPE_KINDS }).notNull(),
  scopeValue: text('scope_value').notNull(),
  announceDate: text('announce_date').notNull(), // YYYY-MM-DD, UTC
  retireDate: text('retire_date').notNull(), // YYYY-MM-DD, UTC
  targetShare: real('target_share').notNull().default(0.005),
  // Which requests the plan's share counts: work requests unless the plan chose all requests.
  basis: text('basis', { enum: SHARE_BASES }).notNull().default('work-requests'),
  policyUrl: text('policy_url'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  archivedAt: integer('archived_at'),
});

/** Announced windows in which a plan's scope is refused on purpose; enforcement reads them. */
export const brownoutsTable = sqliteTable(
  'brownouts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at').notNull(),
    note: text('note'),
  },
  (t) => [index('brownouts_plan_idx').on(t.planId, t.startsAt)],
);
