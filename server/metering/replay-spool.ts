import { rmSync } from 'node:fs';
import type { SequencedBatch, TallyBatch } from '../tally/tally-cell.js';
import { readSpool } from '../store/spool-file.js';
import type { Store } from '../store/store.js';

export interface SpoolReplay {
  /** Events written back now; batches written before are not counted again. */
  replayedEvents: number;
  skippedBatches: number;
}

/**
 * Writes the spooled batches into the store and removes the spool. Each batch is written under its
 * own identity (stream and sequence, or an older spool's string id), so a spool replayed again (the
 * removal failed, or the process died in between) adds nothing twice. A failed write leaves the
 * spool in place for the next start.
 */
export async function replaySpool(store: Store, path: string, now: number): Promise<SpoolReplay> {
  const entries = readSpool(path);
  if (entries.length === 0) return { replayedEvents: 0, skippedBatches: 0 };
  const sequenced: SequencedBatch[] = [];
  const named: { batchId: string; batch: TallyBatch }[] = [];
  for (const entry of entries) {
    if ('stream' in entry) sequenced.push(entry);
    else named.push(entry);
  }
  // A stream's batches must be written in sequence order: a lower one after a higher would be skipped.
  sequenced.sort((a, b) => (a.stream === b.stream ? a.seq - b.seq : a.stream < b.stream ? -1 : 1));
  const a = await store.writeTally(sequenced, now);
  const b = await store.writeLegacySpoolBatches(named, now);
  rmSync(path, { force: true });
  return { replayedEvents: a.writtenEvents + b.writtenEvents, skippedBatches: a.skipped + b.skipped };
}
