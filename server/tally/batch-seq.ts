/**
 * Each drained batch owns a block of sequence numbers in its stream and is written under the top
 * one. When the store refuses a batch for one bad cell, the pieces it is split into take numbers
 * from below that top, in order, so they still reach the store in sequence, and a piece retried
 * after a write whose answer was lost is skipped like any other batch. Were the whole batch in fact
 * written (its answer lost), the stream already stands at the top and every piece is skipped: no
 * count is written twice. 2^20 numbers a batch leaves room to halve a piece twenty times, and
 * 2^33 batches: at one flush a second, centuries of one process.
 */
export const SEQ_BLOCK = 2 ** 20;

/** The sequence number the `n`th batch of a stream (from 1) is written under. */
export function batchSeq(n: number): number {
  return n * SEQ_BLOCK + SEQ_BLOCK - 1;
}

/** The lowest number a batch's pieces may take (they stay below `seq`), or undefined for a number no block owns. */
export function piecesFloor(seq: number): number | undefined {
  if ((seq + 1) % SEQ_BLOCK !== 0 || seq < SEQ_BLOCK) return undefined;
  return seq + 1 - SEQ_BLOCK;
}
