import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * How far each writing process got: a process numbers its flushes in one stream, and a batch is
 * written only above the stream's last sequence number, in the transaction that raises it. A retry
 * of a flush whose commit landed but whose answer was lost is then skipped, not counted twice; one
 * row per process lifetime, not per flush.
 */
export const tallyStreamsTable = sqliteTable('tally_streams', {
  stream: text('stream').primaryKey(),
  node: text('node').notNull(),
  lastSeq: integer('last_seq').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
