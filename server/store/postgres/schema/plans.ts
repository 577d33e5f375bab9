import { bigint, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { SHARE_BASES } from '../../../protocol/work-request.js';
import { PLAN_ACTIONS, PLAN_SCOPE_KINDS } from '../../records/plan-record.js';

/** The plans tables of the SQLite schema, on Postgres. */
export const plansTable = pgTable('plans', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull(),
  scopeKind: text('scope_kind', { enum: PLAN_SCOPE_KINDS }).notNull(),
  scopeValue: text('scope_value').notNull(),
  announceDate: text('announce_date').notNull(),
  retireDate: text('retire_date').notNull(),
  targetShare: doublePrecision('target_share').notNull().default(0.005),
  basis: text('basis', { enum: SHARE_BASES }).notNull().default('work-requests'),
  policyUrl: text('policy_url'),
  action: text('action', { enum: PLAN_ACTIONS }).notNull().default('observe'),
  blockNewCallersFrom: text('block_new_callers_from'),
  quietDays: integer('quiet_days').notNull().default(30),
  gateBackstopDate: text('gate_backstop_date'),
  gateMaxShare: doublePrecision('gate_max_share'),
  declaredKey: text('declared_key').unique(),
  noticeDays: jsonb('notice_days').$type<number[]>().notNull().default([]),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  archivedAt: bigint('archived_at', { mode: 'number' }),
});

export const brownoutsTable = pgTable(
  'brownouts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    startsAt: bigint('starts_at', { mode: 'number' }).notNull(),
    endsAt: bigint('ends_at', { mode: 'number' }).notNull(),
    note: text('note'),
  },
  (t) => [index('brownouts_plan_idx').on(t.planId, t.startsAt)],
);

export const planExemptionsTable = pgTable(
  'plan_exemptions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plansTable.id, { onDelete: 'cascade' }),
    integration: text('integration').notNull(),
    until: text('until').notNull(),
    note: text('note'),
  },
  (t) => [index('plan_exemptions_plan_idx').on(t.planId)],
);
