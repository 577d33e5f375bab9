import { eq } from 'drizzle-orm';
import { rmSync } from 'node:fs';
import type { TallyBatch } from '../../tally/tally-cell.js';
import type { Store } from './open-database.js';
import { replayedSpoolBatchesTable } from './schema/index.js';
import { eventsInBatch, readSpool } from '../spool-file.js';

export interface SpoolReplay {
  /** Events written back now; batches replayed before are not counted again. */
  replayedEvents: number;
  skippedBatches: number;
}

/**
 * Writes the spooled batches into the store and removes the spool. Each batch is written in the
 * same transaction that records its id, so a spool replayed again (the removal failed, or the
 * process died in between) adds nothing twice.
 */
export function replaySpool(store: Store, path: string, write: (batch: TallyBatch) => void, now: number): SpoolReplay {
  const entries = readSpool(path);
  let replayedEvents = 0;
  let skippedBatches = 0;
  store.sqlite.transaction(() => {
    for (const { batchId, batch } of entries) {
      const seen = store.db.select().from(replayedSpoolBatchesTable).where(eq(replayedSpoolBatchesTable.batchId, batchId)).get();
      if (seen !== undefined) {
        skippedBatches += 1;
        continue;
      }
      write(batch);
      store.db.insert(replayedSpoolBatchesTable).values({ batchId, replayedAt: now }).run();
      replayedEvents += eventsInBatch(batch);
    }
  })();
  rmSync(path, { force: true });
  return { replayedEvents, skippedBatches };
}
