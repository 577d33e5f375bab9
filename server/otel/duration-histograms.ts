import { OPERATION_DURATION_BOUNDS, requestAttributes } from '../protocol/otel-attributes.js';
import type { DurationCell } from '../tally/tally.js';

/** One cumulative histogram: its attributes, bucket counts (bounds: OPERATION_DURATION_BOUNDS), sum and count. */
export interface DurationSeries {
  attributes: Readonly<Record<string, string>>;
  counts: number[];
  sum: number;
  count: number;
}

const OVERFLOW_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({ 'mcp_sunset.overflow': 'true' });

/**
 * `mcp.server.operation.duration` since start, by the request attributes without the caller (a
 * histogram per caller would cost its buckets many times over): fed from the durations the tally
 * hands over with each drain, bounded in series like the counts, with the overflow reported.
 */
export class DurationHistograms {
  private readonly series = new Map<string, DurationSeries>();
  private overflow: DurationSeries | undefined;
  foldedRequests = 0;

  constructor(private readonly maxSeries: number) {}

  add(cells: readonly DurationCell[]): void {
    for (const cell of cells) {
      if (cell.labels.kind !== 'request' || cell.count === 0) continue;
      const { era, transport, reason, version, method, outcome } = cell.labels;
      // As JSON, so no client-chosen method or version can make two label sets one key.
      const key = JSON.stringify([era, transport, reason, version, method, outcome]);
      let series = this.series.get(key);
      if (series === undefined && this.series.size < this.maxSeries) {
        series = { attributes: Object.freeze(requestAttributes(cell.labels)), counts: new Array<number>(OPERATION_DURATION_BOUNDS.length + 1).fill(0), sum: 0, count: 0 };
        this.series.set(key, series);
      }
      if (series === undefined) {
        this.overflow ??= { attributes: OVERFLOW_ATTRIBUTES, counts: new Array<number>(OPERATION_DURATION_BOUNDS.length + 1).fill(0), sum: 0, count: 0 };
        series = this.overflow;
        this.foldedRequests += cell.count;
      }
      for (let i = 0; i < cell.counts.length; i += 1) series.counts[i]! += cell.counts[i]!;
      series.sum += cell.sum;
      series.count += cell.count;
    }
  }

  list(): DurationSeries[] {
    return [...this.series.values(), ...(this.overflow === undefined ? [] : [this.overflow])];
  }
}
