import { bucketStart } from '../../lib/time-bucket.js';
import type { TallyBatch, TallyCell } from '../../tally/tally-cell.js';
import { storableCell, type Column } from './write-tally-cells.js';

/**
 * A flush's cells as one statement takes them for all three traffic tables: each cell once, with the
 * start of its minute, hour and day; the statement sums them per table's key. The labels travel once
 * rather than once per table: fewer bytes to send and fewer rows for the sidecar to build.
 */
export const FLUSH_CELL_COLUMNS: readonly Column<TallyCell>[] = [
  ['minute_start', 'bigint', (c) => bucketStart(c.minute, 'minute')],
  ['hour_start', 'bigint', (c) => bucketStart(c.minute, 'hour')],
  ['day_start', 'bigint', (c) => bucketStart(c.minute, 'day')],
  ['node', 'text', (c) => c.node],
  ['era', 'text', (c) => c.era],
  ['transport', 'text', (c) => c.transport],
  ['reason', 'text', (c) => c.reason],
  ['version', 'text', (c) => c.version],
  ['method', 'text', (c) => c.method],
  ['kind', 'text', (c) => c.kind],
  ['outcome', 'text', (c) => c.outcome],
  ['integration', 'text', (c) => c.integration],
  ['count', 'bigint', (c) => c.count],
  ['mismatch_count', 'bigint', (c) => c.mismatchCount],
  ['would_block_count', 'bigint', (c) => c.wouldBlockCount ?? 0],
];

/** One array per column of FLUSH_CELL_COLUMNS, the cells' labels made storable. */
export function flushCellColumns(batch: TallyBatch): (string | number | null)[][] {
  const columns = FLUSH_CELL_COLUMNS.map(() => [] as (string | number | null)[]);
  for (const raw of batch.cells) {
    const cell = storableCell(raw);
    for (let i = 0; i < FLUSH_CELL_COLUMNS.length; i += 1) columns[i]!.push(FLUSH_CELL_COLUMNS[i]![2](cell));
  }
  return columns;
}
