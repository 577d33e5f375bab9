import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/** The tally streams table of the SQLite schema, on Postgres: the row a flush locks to write once. */
export const tallyStreamsTable = pgTable('tally_streams', {
  stream: text('stream').primaryKey(),
  node: text('node').notNull(),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});
