import { eq } from 'drizzle-orm';
import type { TallyBatch } from '../../tally/tally-cell.js';
import type { TallyWrite } from '../store.js';
import { eventsInBatch } from '../spool-file.js';
import type { Db } from './open-database.js';
import { replayedSpoolBatchesTable } from './schema/index.js';
import { prepareBatchStatements } from './write-tally-batch.js';

/**
 * Writes spooled batches named by a string id (spools written before flushes had streams), each in
 * the same transaction that records its id, so a spool replayed again adds nothing twice.
 */
export function writeLegacySpoolBatches(db: Db, entries: readonly { batchId: string; batch: TallyBatch }[], now: number): TallyWrite {
  const statements = prepareBatchStatements(db);
  return db.transaction(() => {
    const result: TallyWrite = { written: 0, skipped: 0, writtenEvents: 0 };
    for (const { batchId, batch } of entries) {
      const seen = db.select().from(replayedSpoolBatchesTable).where(eq(replayedSpoolBatchesTable.batchId, batchId)).get();
      if (seen !== undefined) {
        result.skipped += 1;
        continue;
      }
      statements.writeBatch(batch);
      db.insert(replayedSpoolBatchesTable).values({ batchId, replayedAt: now }).run();
      result.written += 1;
      result.writtenEvents += eventsInBatch(batch);
    }
    return result;
  });
}
