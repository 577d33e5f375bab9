import { OTEL_ATTRIBUTES, requestAttributes } from '../protocol/otel-attributes.js';
import type { TallyCell } from '../tally/tally-cell.js';
import type { RefusalCell } from '../tally/tally.js';

/** One series of a cumulative count: its attributes and what it has counted since start. */
export interface CountSeries {
  attributes: Readonly<Record<string, string>>;
  value: number;
}

export interface RequestCountsOptions {
  /** Identifiable callers named in their own series, first come; later ones are `other`. */
  maxCallers: number;
  /** Distinct series held, each view on its own; past it, counts go to one overflow series. */
  maxSeries: number;
}

/** Callers nobody can phone: never counted against the cap, never named otherwise. */
const UNNAMED = new Set(['anonymous', 'other']);
const OVERFLOW_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({ 'mcp_sunset.overflow': 'true' });

/** A bounded map of series by their attribute set. */
class SeriesTable {
  private readonly series = new Map<string, CountSeries>();
  private overflow: CountSeries | undefined;
  folded = 0;

  constructor(private readonly maxSeries: number) {}

  /** `key` names the attribute set (the labels it is made from); `attributes` is built only for a series not seen yet. */
  add(key: string, attributes: () => Record<string, string>, count: number): void {
    const found = this.series.get(key);
    if (found !== undefined) {
      found.value += count;
    } else if (this.series.size < this.maxSeries) {
      this.series.set(key, { attributes: Object.freeze(attributes()), value: count });
    } else {
      this.overflow ??= { attributes: OVERFLOW_ATTRIBUTES, value: 0 };
      this.overflow.value += count;
      this.folded += count;
    }
  }

  list(): CountSeries[] {
    return [...this.series.values(), ...(this.overflow === undefined ? [] : [this.overflow])];
  }
}

/**
 * Cumulative request counts since the process started, fed from the batches the tally hands the
 * flusher (never from the request path), in two views: with the caller, for the OpenTelemetry
 * export, and without it, for Prometheus, whose labels never name a caller. Both views count
 * every request once, so their totals always agree with each other and with the cells stored.
 */
export class RequestCounts {
  private readonly withCaller: SeriesTable;
  private readonly withoutCaller: SeriesTable;
  private readonly refusalsWithCaller: SeriesTable;
  private readonly refusalsWithoutCaller: SeriesTable;
  private readonly named = new Set<string>();

  constructor(private readonly options: RequestCountsOptions) {
    this.withCaller = new SeriesTable(options.maxSeries);
    this.withoutCaller = new SeriesTable(options.maxSeries);
    this.refusalsWithCaller = new SeriesTable(options.maxSeries);
    this.refusalsWithoutCaller = new SeriesTable(options.maxSeries);
  }

  /** Counts refusals by the plan that made them and their cause, beside the requests (which count them as `blocked`). */
  addRefusals(cells: readonly RefusalCell[]): void {
    for (const cell of cells) {
      if (cell.count <= 0) continue;
      const { era, transport, reason, version, method, outcome, kind, integration } = cell.labels;
      if (kind !== 'request') continue;
      const attributes = () => ({ ...requestAttributes(cell.labels), [OTEL_ATTRIBUTES.plan]: String(cell.plan), [OTEL_ATTRIBUTES.refusal]: cell.cause });
      const caller = this.callerLabel(integration);
      const labels: (string | number)[] = [era, transport, reason, version, method, outcome, cell.plan, cell.cause];
      this.refusalsWithoutCaller.add(JSON.stringify(labels), attributes, cell.count);
      labels.push(caller);
      this.refusalsWithCaller.add(JSON.stringify(labels), () => ({ ...attributes(), [OTEL_ATTRIBUTES.caller]: caller }), cell.count);
    }
  }

  /** Refusals with their caller, for the export. */
  refusalsByCaller(): CountSeries[] {
    return this.refusalsWithCaller.list();
  }

  /** Refusals without the caller, for /metrics. */
  refusalsWithoutCallers(): CountSeries[] {
    return this.refusalsWithoutCaller.list();
  }

  /** Counts the request cells of a batch; other kinds of message are counted elsewhere. */
  add(cells: readonly TallyCell[]): void {
    for (const cell of cells) {
      if (cell.kind !== 'request' || cell.count <= 0) continue;
      // The labels the attributes are made of, as JSON: a method or version is the client's text, and no
      // text it chooses can make two label sets one key. Cheap enough for every cell of a flush.
      const caller = this.callerLabel(cell.integration);
      const labels = [cell.era, cell.transport, cell.reason, cell.version, cell.method, cell.outcome];
      this.withoutCaller.add(JSON.stringify(labels), () => requestAttributes(cell), cell.count);
      labels.push(caller);
      this.withCaller.add(JSON.stringify(labels), () => ({ ...requestAttributes(cell), [OTEL_ATTRIBUTES.caller]: caller }), cell.count);
    }
  }

  private callerLabel(integration: string): string {
    if (UNNAMED.has(integration) || this.named.has(integration)) return integration;
    if (this.named.size < this.options.maxCallers) {
      this.named.add(integration);
      return integration;
    }
    return 'other';
  }

  /** Every series with its caller, for the export. */
  byCaller(): CountSeries[] {
    return this.withCaller.list();
  }

  /** Every series without the caller, for /metrics. */
  withoutCallers(): CountSeries[] {
    return this.withoutCaller.list();
  }

  /** Requests counted into the overflow series of the export's view, because it held `maxSeries` already. */
  get foldedRequests(): number {
    return this.withCaller.folded;
  }
}
