import { idleHeartbeatDue } from './idle-heartbeat-due.js';
import type { Tally } from './tally.js';
import type { NodeHeartbeat, TallyBatch, TallySink } from './tally-cell.js';

export interface FlusherOptions {
  tally: Tally;
  sink: TallySink;
  now: () => number;
  intervalMs: number;
  /** Flush attempts a batch gets before its counts are dropped (and counted as dropped). */
  maxAttempts?: number;
  /** Cells kept for retry while the sink fails; the oldest go first past this. */
  maxRetainedCells?: number;
  /** `final`: the last attempt at shutdown; nothing is dropped, the caller decides where the counts go. */
  onError?: (error: unknown, context: { attempt: number; droppedEvents: number; retainedEvents: number; final: boolean }) => void;
  /** The node's heartbeat as of `now`: written with every flush that has counts; by an idle node every 15 s, or when its policy moved. */
  heartbeat?: (now: number) => NodeHeartbeat;
}

export interface FlushHealth {
  lastFlushAt: number | undefined;
  lastAttemptAt: number | undefined;
  lastError: string | undefined;
  consecutiveFailures: number;
  failedFlushes: number;
  /** Events lost for good because the sink kept failing. */
  droppedEvents: number;
  /** Events from failed flushes, waiting for the next attempt. */
  retainedEvents: number;
}

interface Retained {
  batch: TallyBatch;
  attempts: number;
  events: number;
}

function eventsIn(batch: TallyBatch): number {
  return batch.cells.reduce((sum, cell) => sum + cell.count, 0);
}

/**
 * Moves the tally into the sink in one write per interval, off the request path. A failing sink
 * (locked, read-only, full) never throws back into traffic: the batch is retried a bounded number
 * of times, then dropped and counted, so the loss is visible rather than silent.
 */
export class Flusher {
  private timer: NodeJS.Timeout | undefined;
  private retained: Retained[] = [];
  private lastHeartbeat: NodeHeartbeat | undefined;
  private readonly state: FlushHealth = {
    lastFlushAt: undefined,
    lastAttemptAt: undefined,
    lastError: undefined,
    consecutiveFailures: 0,
    failedFlushes: 0,
    droppedEvents: 0,
    retainedEvents: 0,
  };

  constructor(private readonly options: FlusherOptions) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.flushNow(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and makes a last attempt; on failure the counts stay for takeRetained(). */
  stop(): boolean {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    return this.flushNow(true);
  }

  /** Hands over every count not yet written (after a failed final flush) and forgets them. */
  takeRetained(): { batch: TallyBatch; events: number } {
    const fresh = this.options.tally.drain();
    if (fresh.cells.length > 0 || fresh.integrations.length > 0) this.retained.push({ batch: fresh, attempts: 0, events: eventsIn(fresh) });
    const batch: TallyBatch = { cells: this.retained.flatMap((r) => r.batch.cells), integrations: this.retained.flatMap((r) => r.batch.integrations) };
    const events = this.retained.reduce((sum, r) => sum + r.events, 0);
    this.retained = [];
    return { batch, events };
  }

  /** Writes everything pending now; answers whether the sink took it. */
  flushNow(final = false): boolean {
    const now = this.options.now();
    this.state.lastAttemptAt = now;
    const fresh = this.options.tally.drain();
    if (fresh.cells.length > 0 || fresh.integrations.length > 0) {
      this.retained.push({ batch: fresh, attempts: 0, events: eventsIn(fresh) });
    }
    const heartbeat = this.heartbeatAt(now);
    if (this.retained.length === 0 && (heartbeat === undefined || !idleHeartbeatDue(this.lastHeartbeat, heartbeat))) {
      // Nothing written proves nothing about the store: keep any error until a real write succeeds.
      this.state.lastFlushAt = now;
      return true;
    }
    const combined: TallyBatch = {
      cells: this.retained.flatMap((r) => r.batch.cells),
      integrations: this.retained.flatMap((r) => r.batch.integrations),
    };
    try {
      if (heartbeat === undefined) this.options.sink.write(combined);
      else this.options.sink.write(combined, heartbeat);
      this.retained = [];
      if (heartbeat !== undefined) this.lastHeartbeat = heartbeat;
      this.succeeded(now);
      return true;
    } catch (error) {
      this.failed(error, final);
      return false;
    }
  }

  private heartbeatAt(now: number): NodeHeartbeat | undefined {
    try {
      return this.options.heartbeat?.(now);
    } catch {
      // The heartbeat is news about the node, not counts: its trouble must never hold a flush back.
      return undefined;
    }
  }

  health(): FlushHealth {
    return { ...this.state, retainedEvents: this.retained.reduce((sum, r) => sum + r.events, 0) };
  }

  private succeeded(now: number): void {
    this.state.lastFlushAt = now;
    this.state.lastError = undefined;
    this.state.consecutiveFailures = 0;
  }

  private failed(error: unknown, final: boolean): void {
    const maxAttempts = this.options.maxAttempts ?? 10;
    const maxCells = this.options.maxRetainedCells ?? 200_000;
    this.state.failedFlushes += 1;
    this.state.consecutiveFailures += 1;
    this.state.lastError = error instanceof Error ? error.message : String(error);
    if (final) {
      const retainedEvents = this.health().retainedEvents;
      this.options.onError?.(error, { attempt: this.state.consecutiveFailures, droppedEvents: 0, retainedEvents, final });
      return;
    }
    let dropped = 0;
    for (const r of this.retained) r.attempts += 1;
    const keep = this.retained.filter((r) => r.attempts < maxAttempts);
    for (const r of this.retained) if (r.attempts >= maxAttempts) dropped += r.events;
    let cells = keep.reduce((sum, r) => sum + r.batch.cells.length, 0);
    while (cells > maxCells && keep.length > 0) {
      const oldest = keep.shift()!;
      cells -= oldest.batch.cells.length;
      dropped += oldest.events;
    }
    this.retained = keep;
    this.state.droppedEvents += dropped;
    this.options.onError?.(error, { attempt: this.state.consecutiveFailures, droppedEvents: dropped, retainedEvents: this.health().retainedEvents, final });
  }
}
