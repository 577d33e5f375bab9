import { bigint, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ERAS, OUTCOMES, TRANSPORTS } from '../../../protocol/vocabulary.js';
import { REQUEST_CLASSES } from '../../../protocol/work-request.js';

/** The share rollup of the SQLite schema, on Postgres. */
export const shareDayTable = pgTable(
  'share_day',
  {
    day: bigint('day', { mode: 'number' }).notNull(),
    node: text('node').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    transport: text('transport', { enum: TRANSPORTS }).notNull(),
    version: text('version').notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    requestClass: text('request_class', { enum: REQUEST_CLASSES }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'share_day_pk', columns: [t.day, t.node, t.era, t.transport, t.version, t.outcome, t.requestClass] })],
);

export const legacyCallerDayTable = pgTable(
  'legacy_caller_day',
  {
    day: bigint('day', { mode: 'number' }).notNull(),
    node: text('node').notNull(),
    integration: text('integration').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'legacy_caller_day_pk', columns: [t.day, t.node, t.integration] }), index('legacy_caller_day_integration_idx').on(t.integration, t.day)],
);
