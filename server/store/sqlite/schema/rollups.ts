/**
 * Small rollups written in the same transaction as the traffic rows, so the share curve and the
 * daily count of legacy callers read a few hundred rows instead of a year of per-caller traffic.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ERAS, OUTCOMES, TRANSPORTS } from '../../../protocol/vocabulary.js';
import { REQUEST_CLASSES } from '../../../protocol/work-request.js';

/**
 * Client requests per UTC day and node by the dimensions the share needs. `request_class` tells work from
 * negotiation (initialize, server/discover) and plumbing (ping, logging/setLevel), so the share can
 * count work only and show negotiation beside it.
 */
export const shareDayTable = sqliteTable(
  'share_day',
  {
    day: integer('day').notNull(),
    // The node that served them: the fleet's curve is the sum, and one node's can be read alone.
    node: text('node').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    transport: text('transport', { enum: TRANSPORTS }).notNull(),
    version: text('version').notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    requestClass: text('request_class', { enum: REQUEST_CLASSES }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ name: 'share_day_pk', columns: [t.day, t.node, t.era, t.transport, t.version, t.outcome, t.requestClass] })],
);

/** Served legacy work requests per caller, node and UTC day: the distinct callers of a day are its legacy callers. */
export const legacyCallerDayTable = sqliteTable(
  'legacy_caller_day',
  {
    day: integer('day').notNull(),
    // Per node, so a flush touches its own node's rows only and nodes never wait on each other's locks.
    node: text('node').notNull(),
    integration: text('integration').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ name: 'legacy_caller_day_pk', columns: [t.day, t.node, t.integration] }), index('legacy_caller_day_integration_idx').on(t.integration, t.day)],
);
