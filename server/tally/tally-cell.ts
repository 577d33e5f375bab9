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

/**
 * A person seen using a caller on one UTC day: served work on that path, by a subject a verified
 * credential named. `subject` is a keyed digest, never the raw subject; the store keeps each once.
 */
export interface PersonSighting {
  day: number;
  integration: string;
  /** The era that served the work (a modern request the legacy path answered is legacy). */
  era: Era;
  transport: Transport;
  version: string;
  subject: string;
}

/**
 * Served work requests no trusted mechanism named, per UTC day, node, era and what their client
 * claimed to be: how the unknown base is described. A claim, never a caller.
 */
export interface ClaimCell {
  day: number;
  node: string;
  /** The era that served the work (a modern request the legacy path answered is legacy). */
  era: Era;
  kind: 'client-info' | 'user-agent' | 'none';
  name: string;
  version: string;
  count: number;
}

export interface TallyBatch {
  cells: TallyCell[];
  integrations: IntegrationSighting[];
  /** Absent in batches spooled before people were counted. */
  people?: PersonSighting[];
  /** Absent in batches spooled before claims were counted. */
  claims?: ClaimCell[];
}

/** Events a batch counts. */
export function eventsOfBatch(batch: TallyBatch): number {
  return batch.cells.reduce((sum, cell) => sum + cell.count, 0);
}

/** The forms a sidecar takes; each writes its own node's heartbeat. */
export const SIDECAR_KINDS = ['serve', 'wrap', 'middleware'] as const;
export type SidecarKind = (typeof SIDECAR_KINDS)[number];

/** Who flushed, and under which policy: written with the flush's counts, so a node that writes is seen alive. */
export interface NodeHeartbeat {
  node: string;
  kind: SidecarKind;
  /** When the flush ran. */
  at: number;
  /** The stored policy version the node's compiled policy was built from at that flush. */
  policyVersion: number;
  /** When the node's process started. */
  startedAt: number;
}

/**
 * One flush's counts under the identity that makes its write happen once: the writing process's
 * stream and the batch's place in it. A stream's batches are written in order, so a store keeps
 * only the last sequence number written per stream, and a retry of a batch at or below it (the
 * commit landed but its answer was lost) adds nothing.
 */
export interface SequencedBatch {
  stream: string;
  /** The node the stream writes for. */
  node: string;
  seq: number;
  batch: TallyBatch;
}

/** What one write did. */
export interface TallyWrite {
  /** Batches written now. */
  written: number;
  /** Batches an earlier attempt had written (its answer was lost): not counted again. */
  skipped: number;
  /** Events in the batches written now. */
  writtenEvents: number;
}

/** Where a flush writes. It rejects on failure, and the flusher keeps the batches for the next attempt. */
export interface TallySink {
  /** Writes the batches in order and, when given, the node's heartbeat in one transaction. */
  write(batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat): Promise<TallyWrite>;
}

/** Label values that stand for "none" and "too many distinct values". */
export const NO_VERSION = '(none)';
export const OVERFLOW_LABEL = 'other';
