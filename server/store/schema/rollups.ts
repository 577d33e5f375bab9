/**
 * Small rollups written in the same transaction as the traffic rows, so the share curve and the
 * daily count of legacy callers read a few hundred rows instead of a year of per-caller traffic.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Requests per UTC day by the dimensions the share needs; `discover` marks server/discover. */
export const shareDayTable = sqliteTable(
  'share_day',
  {
    day: integer('day').notNull(),
    era: text('era').notNull(),
    transport: text('transport').notNull(),
    version: text('version').notNull(),
    outcome: text('outcome').notNull(),
    discover: integer('discover', { mode: 'boolean' }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ name: 'share_day_pk', columns: [t.day, t.era, t.transport, t.version, t.outcome, t.discover] })],
);

/** Served legacy requests per caller and UTC day: its rows per day are the day's legacy callers. */
export const legacyCallerDayTable = sqliteTable(
  'legacy_caller_day',
  {
    day: integer('day').notNull(),
    integration: text('integration').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ name: 'legacy_caller_day_pk', columns: [t.day, t.integration] }), index('legacy_caller_day_integration_idx').on(t.integration, t.day)],
);
