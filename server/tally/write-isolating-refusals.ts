import { piecesFloor } from './batch-seq.js';
import { eventsOfBatch, type NodeHeartbeat, type SequencedBatch, type TallyBatch, type TallySink } from './tally-cell.js';

/** What the store would not take, for good: the events lost, and why. */
export interface RefusedCells {
  cells: number;
  sightings: number;
  events: number;
  reason: string;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function itemsOf(batch: TallyBatch): number {
  return batch.cells.length + batch.integrations.length + (batch.people?.length ?? 0) + (batch.claims?.length ?? 0);
}

/** Halves a batch's cells, sightings, people and claims, as one list in that order, into two batches. */
function halves(batch: TallyBatch): [TallyBatch, TallyBatch] {
  let left = Math.ceil(itemsOf(batch) / 2);
  const cut = <T,>(list: readonly T[]): [T[], T[]] => {
    const at = Math.min(left, list.length);
    left -= at;
    return [list.slice(0, at), list.slice(at)];
  };
  const [cells1, cells2] = cut(batch.cells);
  const [sightings1, sightings2] = cut(batch.integrations);
  const [people1, people2] = cut(batch.people ?? []);
  const [claims1, claims2] = cut(batch.claims ?? []);
  return [
    { cells: cells1, integrations: sightings1, people: people1, claims: claims1 },
    { cells: cells2, integrations: sightings2, people: people2, claims: claims2 },
  ];
}

/**
 * Writes batches the store refused as a whole (it answers, so the fault is in what they hold) one
 * by one, and halves any it refuses again until each refusal is one cell or one sighting: those are
 * lost and reported, everything else is stored. A piece written under `seq` takes the numbers below
 * it for its own halves (see `batchSeq`), so the stream stays in order and a retried piece is skipped.
 * A failure on the way that is not a refusal (the store went away) rejects, and the flusher retries
 * the whole write later: what was written by then is skipped, by sequence, the next time.
 */
export async function writeIsolatingRefusals(sink: TallySink, batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat): Promise<RefusedCells[]> {
  const refused: RefusedCells[] = [];
  let beat = heartbeat;

  const attempt = async (piece: SequencedBatch): Promise<unknown> => {
    try {
      await sink.write([piece], now, beat);
      beat = undefined;
      return undefined;
    } catch (error) {
      // A store that stopped answering did not refuse this piece: the whole write is retried later.
      await sink.write([], now);
      return error;
    }
  };

  const writePiece = async (piece: SequencedBatch, lo: number): Promise<void> => {
    const error = await attempt(piece);
    if (error === undefined) return;
    const { batch } = piece;
    const items = itemsOf(batch);
    // Halving needs two free numbers below the piece's own: one for each half.
    if (items <= 1 || piece.seq - lo < 2) {
      refused.push({ cells: batch.cells.length, sightings: batch.integrations.length, events: eventsOfBatch(batch), reason: reasonOf(error) });
      return;
    }
    const [first, second] = halves(batch);
    const mid = lo + Math.floor((piece.seq - lo) / 2);
    // The first half's own halves live in [lo, mid - 1), the second's in [mid, piece.seq - 1).
    await writePiece({ ...piece, seq: mid - 1, batch: first }, lo);
    await writePiece({ ...piece, seq: piece.seq - 1, batch: second }, mid);
  };

  for (const batch of batches) {
    // A batch from a stream that did not number in blocks cannot be split without losing order.
    await writePiece(batch, piecesFloor(batch.seq) ?? batch.seq);
  }
  if (beat !== undefined) await sink.write([], now, beat);
  return refused;
}
