import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ALERT_STATES, ALERT_TRANSITIONS, DELIVERY_FORMATS, DELIVERY_STATUSES } from '../../records/alert-record.js';

/**
 * One row per alert fingerprint (rule + subject). `pending` counts consecutive positive
 * evaluations before a rule that needs several (curve-flattened) fires.
 */
export const alertsTable = sqliteTable(
  'alerts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fingerprint: text('fingerprint').notNull().unique(),
    rule: text('rule').notNull(),
    subject: text('subject').notNull(),
    state: text('state', { enum: ALERT_STATES }).notNull(),
    severity: text('severity').notNull(),
    summary: text('summary').notNull(),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    consecutiveHits: integer('consecutive_hits').notNull().default(0),
    firstFiredAt: integer('first_fired_at'),
    lastFiredAt: integer('last_fired_at'),
    resolvedAt: integer('resolved_at'),
    lastEvaluatedAt: integer('last_evaluated_at').notNull(),
  },
  (t) => [index('alerts_state_idx').on(t.state, t.lastEvaluatedAt)],
);

/** Every attempt to tell a webhook about an alert transition, kept so failures are visible. */
export const alertDeliveriesTable = sqliteTable(
  'alert_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    alertId: integer('alert_id')
      .notNull()
      .references(() => alertsTable.id, { onDelete: 'cascade' }),
    transition: text('transition', { enum: ALERT_TRANSITIONS }).notNull(),
    webhook: text('webhook').notNull(),
    format: text('format', { enum: DELIVERY_FORMATS }).notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull(),
    attempts: integer('attempts').notNull(),
    lastError: text('last_error'),
    at: integer('at').notNull(),
  },
  (t) => [index('alert_deliveries_alert_idx').on(t.alertId, t.at)],
);
