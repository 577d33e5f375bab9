import type { TallyBatch } from '../../tally/tally-cell.js';
import type { TallyWrite } from '../store.js';
import { eventsInBatch } from '../spool-file.js';
import type { PgDb } from './pg-db.js';
import { replayedSpoolBatchesTable } from './schema/index.js';
import { writeSightings, writeTallyCells } from './write-tally-cells.js';

/**
 * Writes spooled batches from before stream ids, each in the transaction that records its id, so a
 * spool replayed again (the removal failed, or the process died in between) adds nothing twice.
 */
export async function writeLegacySpoolBatches(db: PgDb, entries: readonly { batchId: string; batch: TallyBatch }[], now: number): Promise<TallyWrite> {
  const result = await db.transaction(async (tx) => {
    const accepted: TallyBatch[] = [];
    for (const { batchId, batch } of entries) {
      const recorded = await tx.insert(replayedSpoolBatchesTable).values({ batchId, replayedAt: now }).onConflictDoNothing().returning({ batchId: replayedSpoolBatchesTable.batchId });
      if (recorded.length > 0) accepted.push(batch);
    }
    await writeTallyCells(tx, accepted);
    return { written: accepted.length, skipped: entries.length - accepted.length, writtenEvents: accepted.reduce((sum, batch) => sum + eventsInBatch(batch), 0) };
  });
  // As for a live flush: the sightings merge idempotently, after the counts, for every entry.
  await writeSightings(db, entries.map((entry) => entry.batch));
  return result;
}
