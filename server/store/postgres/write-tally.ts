import { sql } from 'drizzle-orm';
import type { NodeHeartbeat, TallyBatch } from '../../tally/tally-cell.js';
import type { SequencedBatch, TallyWrite } from '../store.js';
import { eventsInBatch } from '../spool-file.js';
import type { PgDb } from './pg-db.js';
import { tallyStreamsTable } from './schema/index.js';
import { upsertHeartbeat } from './upsert-heartbeat.js';
import { writeTallyCells } from './write-tally-cells.js';

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

/** Writes the batches in order, each once per stream and sequence number, and the node's heartbeat, in one transaction. */
export async function writeTally(db: PgDb, batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat): Promise<TallyWrite> {
  return db.transaction(async (tx) => {
    const accepted: TallyBatch[] = [];
    for (const batch of batches) if (await advanceStream(tx, batch, now)) accepted.push(batch.batch);
    // The node's own row first: the callers' rows, shared with every node, are locked last, so
    // other nodes' flushes wait on them for as short a time as possible before this commit.
    if (heartbeat !== undefined) await upsertHeartbeat(tx, heartbeat);
    await writeTallyCells(tx, accepted);
    return { written: accepted.length, skipped: batches.length - accepted.length, writtenEvents: accepted.reduce((sum, batch) => sum + eventsInBatch(batch), 0) };
  });
}
