import { rmSync, statSync } from 'node:fs';
import type { FlushSpill } from '../tally/flusher.js';
import type { SequencedBatch } from '../tally/tally-cell.js';
import { appendSpool, eventsInBatch, readSpool } from '../store/spool-file.js';

/**
 * The flusher's spill in the spool file: batches the store could not take in time are appended
 * (synced to disk) while it stays under `maxBytes`, and written back, in order, by the first flush
 * the store accepts. Entries of older spools (a string id, no stream) are left to the start-up replay.
 */
export function createSpoolSpill(path: string, maxBytes: number): FlushSpill {
  // Counted once from the file, then kept: /metrics reads it on every scrape.
  let events = readSpool(path).reduce((sum, entry) => sum + eventsInBatch(entry.batch), 0);
  return {
    append(batches) {
      const lines = batches.map((batch) => `${JSON.stringify(batch)}\n`);
      const adding = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
      if (sizeOf(path) + adding > maxBytes) return false;
      for (const batch of batches) appendSpool(path, batch);
      events += batches.reduce((sum, b) => sum + eventsInBatch(b.batch), 0);
      return true;
    },
    read() {
      if (events === 0) return [];
      return readSpool(path).filter((entry): entry is SequencedBatch => 'stream' in entry);
    },
    clear() {
      const older = readSpool(path).filter((entry) => !('stream' in entry));
      rmSync(path, { force: true });
      for (const entry of older) appendSpool(path, entry);
      events = older.reduce((sum, entry) => sum + eventsInBatch(entry.batch), 0);
    },
    events: () => events,
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
