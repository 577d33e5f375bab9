import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

export const replayedSpoolBatchesTable = pgTable('replayed_spool_batches', {
  batchId: text('batch_id').primaryKey(),
  replayedAt: bigint('replayed_at', { mode: 'number' }).notNull(),
});
