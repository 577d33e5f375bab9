import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ALERT_STATES, ALERT_TRANSITIONS, DELIVERY_FORMATS, DELIVERY_STATUSES } from '../../records/alert-record.js';

/** The alerts table of the SQLite schema, on Postgres. */
export const alertsTable = pgTable(
  'alerts',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    fingerprint: text('fingerprint').notNull().unique(),
    rule: text('rule').notNull(),
    subject: text('subject').notNull(),
    state: text('state', { enum: ALERT_STATES }).notNull(),
    severity: text('severity').notNull(),
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    consecutiveHits: integer('consecutive_hits').notNull().default(0),
    firstFiredAt: bigint('first_fired_at', { mode: 'number' }),
    lastFiredAt: bigint('last_fired_at', { mode: 'number' }),
    resolvedAt: bigint('resolved_at', { mode: 'number' }),
    lastEvaluatedAt: bigint('last_evaluated_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('alerts_state_idx').on(t.state, t.lastEvaluatedAt)],
);

export const alertDeliveriesTable = pgTable(
  'alert_deliveries',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    alertId: integer('alert_id')
      .notNull()
      .references(() => alertsTable.id, { onDelete: 'cascade' }),
    transition: text('transition', { enum: ALERT_TRANSITIONS }).notNull(),
    webhook: text('webhook').notNull(),
    format: text('format', { enum: DELIVERY_FORMATS }).notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull(),
    lastError: text('last_error'),
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  (t) => [index('alert_deliveries_alert_idx').on(t.alertId, t.at)],
);
