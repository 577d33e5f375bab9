import type { FlushHealth } from './flusher.js';
import type { TallyStats } from './tally.js';

/** What /healthz reports: liveness stays `ok`/`degraded` (never down) while traffic flows. */
export interface MeteringHealthReport {
  status: 'ok' | 'degraded';
  /** Why the status is degraded, in words; null when ok. */
  reason: string | null;
  node: string;
  upstream: string;
  uptimeSeconds: number;
  store: { path: string; available: boolean; error: string | null };
  metering: {
    events: number;
    pendingEvents: number;
    retainedEvents: number;
    spooledEvents: number;
    droppedEvents: number;
    /** Of `droppedEvents`, those in cells the store refused while it took the rest of their flush. */
    refusedEvents: number;
    refusedCells: number;
    /** Why counts were last lost for good; null while none were. */
    lastDropReason: string | null;
    /** Events counted with a method, version or caller of `other` because a cap was reached. */
    overflowedEvents: number;
    /** Of those, by the cap that folded them (one event may be in several): callers, versions, methods, and the cells of a flush window. */
    overflowedCallerEvents: number;
    overflowedVersionEvents: number;
    overflowedMethodEvents: number;
    overflowedCellEvents: number;
    /** People not counted because a flush window already held as many as the tally keeps. */
    overflowedPeople: number;
    meteringErrors: number;
    failedFlushes: number;
    consecutiveFailures: number;
    lastFlushAt: string | null;
    lastFlushError: string | null;
    openSessions: number;
    pendingAnswers: number;
    /** Bytes the sidecar's tables hold now (estimated), their budget, and entries the budget pushed out. */
    heldBytes: number;
    heldBytesBudget: number;
    bytesEvictions: number;
    nonMcpRequests: number;
  };
}

export interface MeteringHealthInput {
  node: string;
  upstream: string;
  startedAt: number;
  now: number;
  store: { path: string; available: boolean; error: string | undefined };
  flush: FlushHealth;
  counts: TallyStats;
  meteringErrors: number;
  openSessions: number;
  pendingAnswers: number;
  memory?: { heldBytes: number; budgetBytes: number; evictedForBytes: number };
  nonMcpRequests: number;
  /** Counts a failed final flush left in the spool, not yet written back. */
  spooledEvents?: number;
}

function degradedReason(input: MeteringHealthInput): string | null {
  const { flush } = input;
  if (!input.store.available) return `database unavailable: ${input.store.error ?? 'unknown error'}`;
  if (flush.consecutiveFailures > 0) return `flushes failing (${flush.consecutiveFailures} in a row): ${flush.lastError ?? 'unknown error'}`;
  if (flush.droppedEvents > 0) return flush.lastDropReason === undefined ? `${flush.droppedEvents} counts dropped after failed flushes` : `${flush.droppedEvents} counts dropped; the last because ${flush.lastDropReason}`;
  if (input.meteringErrors > 0) return `${input.meteringErrors} metering errors`;
  if ((input.spooledEvents ?? 0) > 0) return `${input.spooledEvents} spooled counts not yet stored`;
  return null;
}

/**
 * The health report from the metering pipeline's own numbers. Degraded means counts are, or may be,
 * missing: no store, counts dropped, a flush failing now, or a fault in the sidecar's own code.
 */
export function computeMeteringHealth(input: MeteringHealthInput): MeteringHealthReport {
  const { flush, counts } = input;
  const reason = degradedReason(input);
  return {
    status: reason === null ? 'ok' : 'degraded',
    reason,
    node: input.node,
    upstream: input.upstream,
    uptimeSeconds: Math.round((input.now - input.startedAt) / 1000),
    store: { path: input.store.path, available: input.store.available, error: input.store.error ?? null },
    metering: {
      events: counts.events,
      pendingEvents: counts.pendingEvents,
      retainedEvents: flush.retainedEvents,
      spooledEvents: input.spooledEvents ?? 0,
      droppedEvents: flush.droppedEvents,
      refusedEvents: flush.refusedEvents,
      refusedCells: flush.refusedCells,
      lastDropReason: flush.lastDropReason ?? null,
      overflowedEvents: counts.overflowedEvents,
      overflowedCallerEvents: counts.overflowedCallerEvents,
      overflowedVersionEvents: counts.overflowedVersionEvents,
      overflowedMethodEvents: counts.overflowedMethodEvents,
      overflowedCellEvents: counts.overflowedCellEvents,
      overflowedPeople: counts.overflowedPeople,
      meteringErrors: input.meteringErrors,
      failedFlushes: flush.failedFlushes,
      consecutiveFailures: flush.consecutiveFailures,
      lastFlushAt: flush.lastFlushAt === undefined ? null : new Date(flush.lastFlushAt).toISOString(),
      lastFlushError: flush.lastError ?? null,
      openSessions: input.openSessions,
      pendingAnswers: input.pendingAnswers,
      heldBytes: input.memory?.heldBytes ?? 0,
      heldBytesBudget: input.memory?.budgetBytes ?? 0,
      bytesEvictions: input.memory?.evictedForBytes ?? 0,
      nonMcpRequests: input.nonMcpRequests,
    },
  };
}
