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

/** Where a flush writes. Synchronous on purpose: it throws, and the flusher keeps the batch. */
export interface TallySink {
  /** Writes the batch and, when given, the node's heartbeat in one transaction. */
  write(batch: TallyBatch, heartbeat?: NodeHeartbeat): void;
}

/** Label values that stand for "none" and "too many distinct values". */
export const NO_VERSION = '(none)';
export const OVERFLOW_LABEL = 'other';
