import { eq, sql } from 'drizzle-orm';
import type { NodeHeartbeat } from '../../tally/tally-cell.js';
import type { SequencedBatch, TallyWrite } from '../store.js';
import { eventsInBatch } from '../spool-file.js';
import type { Db } from './open-database.js';
import { tallyStreamsTable } from './schema/index.js';
import { prepareBatchStatements } from './write-tally-batch.js';

/**
 * Returns the live flush's writer: the batches in order, each only above its stream's last written
 * sequence number, which rises in the same transaction, and the heartbeat, all in one transaction.
 * A retry of a flush that did land (its answer lost) then adds nothing.
 */
export function createStreamWriter(db: Db): (batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat) => TallyWrite {
  const statements = prepareBatchStatements(db);
  const t = tallyStreamsTable;
  const lastSeq = db.select({ lastSeq: t.lastSeq }).from(t).where(eq(t.stream, sql.placeholder('stream'))).prepare();
  const advance = db
    .insert(t)
    .values({ stream: sql.placeholder('stream'), node: sql.placeholder('node'), lastSeq: sql.placeholder('seq'), updatedAt: sql.placeholder('now') })
    .onConflictDoUpdate({ target: t.stream, set: { lastSeq: sql`excluded.last_seq`, updatedAt: sql`excluded.updated_at` } })
    .prepare();
  return (batches, now, heartbeat) =>
    db.transaction(() => {
      const result: TallyWrite = { written: 0, skipped: 0, writtenEvents: 0 };
      for (const { stream, node, seq, batch } of batches) {
        const last = lastSeq.get({ stream })?.lastSeq ?? -1;
        if (seq <= last) {
          result.skipped += 1;
          continue;
        }
        statements.writeBatch(batch);
        advance.run({ stream, node, seq, now });
        result.written += 1;
      result.writtenEvents += eventsInBatch(batch);
      }
      if (heartbeat !== undefined) statements.touchNode(heartbeat);
      return result;
    });
}
