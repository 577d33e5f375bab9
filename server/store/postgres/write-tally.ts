import { sql } from 'drizzle-orm';
import type { NodeHeartbeat, TallyBatch } from '../../tally/tally-cell.js';
import type { SequencedBatch, TallyWrite } from '../store.js';
import { eventsInBatch } from '../spool-file.js';
import type { PgDb } from './pg-db.js';
import { tallyStreamsTable } from './schema/index.js';
import { upsertHeartbeat } from './upsert-heartbeat.js';
import { writeSightings, writeTallyCells } from './write-tally-cells.js';

/**
 * Raises the stream's last sequence number to `seq` when it is above it, and answers whether it
 * did. The upsert locks the stream's row either way, so a retry racing its own first attempt waits
 * for that commit and then finds the batch written.
 */
async function advanceStream(db: PgDb, batch: SequencedBatch, now: number): Promise<boolean> {
  const t = tallyStreamsTable;
  const rows = await db
    .insert(t)
    .values({ stream: batch.stream, node: batch.node, lastSeq: batch.seq, updatedAt: now })
    .onConflictDoUpdate({
      target: t.stream,
      set: { lastSeq: sql`excluded.last_seq`, updatedAt: sql`excluded.updated_at`, node: sql`excluded.node` },
      setWhere: sql`${t.lastSeq} < excluded.last_seq`,
    })
    .returning({ stream: t.stream });
  return rows.length > 0;
}

/**
 * Writes the batches' counts in order, each once per stream and sequence number, with the node's
 * heartbeat, in one transaction that locks only the node's own rows; then the callers' sightings,
 * which every node shares, in a short one of their own. Sightings merge idempotently, so they are
 * written for every batch given, new or already counted: a retry after the second step failed
 * finds its counts written and writes the sightings again.
 */
export async function writeTally(db: PgDb, batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat): Promise<TallyWrite> {
  const result = await db.transaction(async (tx) => {
    const accepted: TallyBatch[] = [];
    for (const batch of batches) if (await advanceStream(tx, batch, now)) accepted.push(batch.batch);
    if (heartbeat !== undefined) await upsertHeartbeat(tx, heartbeat);
    await writeTallyCells(tx, accepted);
    return { written: accepted.length, skipped: batches.length - accepted.length, writtenEvents: accepted.reduce((sum, batch) => sum + eventsInBatch(batch), 0) };
  });
  await writeSightings(db, batches.map((batch) => batch.batch));
  return result;
}
