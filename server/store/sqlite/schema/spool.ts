import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Spooled batches already written back, so a spool replayed twice counts once. */
export const replayedSpoolBatchesTable = sqliteTable('replayed_spool_batches', {
  batchId: text('batch_id').primaryKey(),
  replayedAt: integer('replayed_at').notNull(),
});
