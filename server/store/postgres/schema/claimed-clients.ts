import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ERAS } from '../../../protocol/vocabulary.js';

export const CLAIM_KINDS = ['client-info', 'user-agent', 'none'] as const;

/** The unknown base described, of the SQLite schema, on Postgres: each node adds to its own rows. */
export const claimedClientDayTable = pgTable(
  'claimed_client_day',
  {
    day: bigint('day', { mode: 'number' }).notNull(),
    node: text('node').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    kind: text('kind', { enum: CLAIM_KINDS }).notNull(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'claimed_client_day_pk', columns: [t.day, t.node, t.era, t.kind, t.name, t.version] })],
);
