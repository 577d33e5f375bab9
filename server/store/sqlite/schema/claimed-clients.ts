/**
 * The unknown base described: served work requests no trusted mechanism named, per UTC day, node,
 * era and what their clients claimed to be (clientInfo, else a User-Agent's product). Claims, shown
 * as such; no plan, exemption or gate reads them.
 */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ERAS } from '../../../protocol/vocabulary.js';

export const CLAIM_KINDS = ['client-info', 'user-agent', 'none'] as const;

export const claimedClientDayTable = sqliteTable(
  'claimed_client_day',
  {
    day: integer('day').notNull(),
    node: text('node').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    kind: text('kind', { enum: CLAIM_KINDS }).notNull(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ name: 'claimed_client_day_pk', columns: [t.day, t.node, t.era, t.kind, t.name, t.version] })],
);
