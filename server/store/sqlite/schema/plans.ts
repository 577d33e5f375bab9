import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { SHARE_BASES } from '../../../protocol/work-request.js';
import { PLAN_ACTIONS, PLAN_SCOPE_KINDS } from '../../records/plan-record.js';

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
  action: text('action', { enum: PLAN_ACTIONS }).notNull().default('observe'),
  // From this day (YYYY-MM-DD, UTC) callers in scope with no served work in it before are refused.
  blockNewCallersFrom: text('block_new_callers_from'),
  // A caller quiet in scope this many days is migrated, and no longer holds the gate.
  quietDays: integer('quiet_days').notNull().default(30),
  // The usage gate: present when it has a backstop date (YYYY-MM-DD), which ends any wait.
  gateBackstopDate: text('gate_backstop_date'),
  // The gate also holds while the plan's share is above this; null: callers alone decide.
  gateMaxShare: real('gate_max_share'),
  // Set when the plan is declared in the config file: it is then read-only through the API.
  declaredKey: text('declared_key').unique(),
  // Days before each brownout, the block-new date and the cut on which its active callers are told.
  noticeDays: text('notice_days', { mode: 'json' }).$type<number[]>().notNull().default(sql`'[]'`),
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

/** Integrations that keep passing a plan's refusals until the end of their `until` day. */
export const planExemptionsTable = sqliteTable(
  'plan_exemptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    integration: text('integration').notNull(),
    until: text('until').notNull(), // YYYY-MM-DD, UTC, the last day the exemption holds
    note: text('note'),
  },
  (t) => [index('plan_exemptions_plan_idx').on(t.planId)],
);
