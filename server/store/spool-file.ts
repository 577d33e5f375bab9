import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { SequencedBatch, TallyBatch } from '../tally/tally-cell.js';

/**
 * One batch the final flush could not write, under the identity that makes its replay count once:
 * its stream and sequence number, or (in spools written before streams) a string id.
 */
export type SpoolEntry = SequencedBatch | { batchId: string; batch: TallyBatch };

/**
 * Appends a batch to the spool, one JSON line per batch, and syncs it to disk before answering:
 * the caller is about to exit and reports these counts as safe.
 */
export function appendSpool(path: string, entry: SpoolEntry): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The spooled batches, oldest first; a line torn by a crash mid-append is skipped. */
export function readSpool(path: string): SpoolEntry[] {
  if (!existsSync(path)) return [];
  const entries: SpoolEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as Partial<SequencedBatch> & { batchId?: unknown };
      const identified = typeof entry.batchId === 'string' || (typeof entry.stream === 'string' && typeof entry.node === 'string' && Number.isSafeInteger(entry.seq));
      if (identified && Array.isArray(entry.batch?.cells) && Array.isArray(entry.batch?.integrations) && (entry.batch.people === undefined || Array.isArray(entry.batch.people)) && (entry.batch.claims === undefined || Array.isArray(entry.batch.claims))) entries.push(entry as SpoolEntry);
    } catch {
      // Torn or foreign line: nothing in it can be counted safely.
    }
  }
  return entries;
}

/** Events a batch carries. */
export function eventsInBatch(batch: TallyBatch): number {
  return batch.cells.reduce((sum, cell) => sum + cell.count, 0);
}
