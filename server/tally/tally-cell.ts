import type { Era, MessageKind, Outcome, Reason, Transport } from '../protocol/vocabulary.js';

/** The dimensions one count is filed under. */
export interface TrafficLabels {
  era: Era;
  transport: Transport;
  reason: Reason;
  version: string;
  method: string;
  kind: MessageKind;
  outcome: Outcome;
  integration: string;
}

/** One aggregated cell: a minute of one node's traffic under one set of labels. */
export interface TallyCell extends TrafficLabels {
  minute: number;
  node: string;
  count: number;
  mismatchCount: number;
  /** How many of `count` a plan in dry run would have refused (absent: none, as in older spooled batches). */
  wouldBlockCount?: number;
}

/** What a flush learned about a caller, kept beside its counts. */
export interface IntegrationSighting {
  key: string;
  source: string;
  firstSeen: number;
  lastSeen: number;
  lastLegacySeen: number | undefined;
  clientInfo: { name: string; version: string } | undefined;
}

export interface TallyBatch {
  cells: TallyCell[];
  integrations: IntegrationSighting[];
}

/** Where a flush writes. Synchronous on purpose: it throws, and the flusher keeps the batch. */
export interface TallySink {
  write(batch: TallyBatch): void;
}

/** Label values that stand for "none" and "too many distinct values". */
export const NO_VERSION = '(none)';
export const OVERFLOW_LABEL = 'other';
