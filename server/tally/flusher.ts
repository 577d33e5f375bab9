import { idleHeartbeatDue } from './idle-heartbeat-due.js';
import type { Tally } from './tally.js';
import { eventsOfBatch, type NodeHeartbeat, type SequencedBatch, type TallyBatch, type TallySink } from './tally-cell.js';
import { batchSeq } from './batch-seq.js';
import { writeIsolatingRefusals, type RefusedCells } from './write-isolating-refusals.js';

export interface FlusherOptions {
  tally: Tally;
  /** The node this process counts for: its batches are written under it. */
  node: string;
  /** This process's stream of batches: unique to the process (a random UUID), so no other writer shares its numbers. */
  stream: string;
  sink: TallySink;
  now: () => number;
  intervalMs: number;
  /** Flush attempts a batch gets before its counts are dropped (and counted as dropped). */
  maxAttempts?: number;
  /** Cells kept for retry while the sink fails; the oldest go first past this. */
  maxRetainedCells?: number;
  /** `final`: the last attempt at shutdown; nothing is dropped, the caller decides where the counts go. */
  onError?: (error: unknown, context: { attempt: number; droppedEvents: number; spilledEvents: number; retainedEvents: number; final: boolean }) => void;
  /** The node's heartbeat as of `now`: written with every flush that has counts; by an idle node every 15 s, or when its policy moved. */
  heartbeat?: (now: number) => NodeHeartbeat;
  /** Where batches go that outlast their attempts while the sink keeps failing, instead of being dropped. */
  spill?: FlushSpill;
  /** Told each batch as it leaves the tally, before any write (the exported counts); what it throws is its own, never the flush's. */
  onDrained?: (batch: TallyBatch) => void;
}

/**
 * Durable overflow for batches the sink could not take in time (a spool file), kept in order: while
 * it holds anything, every flush writes its batches first, with the newer ones in the same write, so
 * a stream's batches still reach the store in sequence order.
 */
export interface FlushSpill {
  /** Appends the batches; answers false (and keeps none of them) when its bound would be passed or it cannot write. */
  append(batches: readonly SequencedBatch[]): boolean;
  /** The spilled batches of sequenced streams, in the order written. */
  read(): SequencedBatch[];
  /** Forgets every batch read (they were written). */
  clear(): void;
  /** Events it holds. */
  events(): number;
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
  /** Events moved to the spill after their attempts ran out, waiting for the store. */
  spilledEvents: number;
  /** Of `droppedEvents`, those in cells or sightings the store refused while it took the rest. */
  refusedEvents: number;
  /** Cells and sightings the store refused. */
  refusedCells: number;
  /** Why counts were last lost for good (the store's refusal, an unreadable spill); undefined while none were. */
  lastDropReason: string | undefined;
}

interface Retained {
  seq: number;
  batch: TallyBatch;
  attempts: number;
  events: number;
}

/**
 * Moves the tally into the sink in one write per interval, off the request path. A failing sink
 * (locked, read-only, full, unreachable) never throws back into traffic: the batch is retried a
 * bounded number of times, then dropped and counted, so the loss is visible rather than silent.
 *
 * Each drained batch gets the next sequence number of this process's stream and keeps it through
 * every retry, so a store that did commit an attempt whose answer was lost skips it the next time.
 * Flushes run one at a time, in order: a flush asked for while one runs waits for it.
 */
export class Flusher {
  readonly stream: string;
  private timer: NodeJS.Timeout | undefined;
  private retained: Retained[] = [];
  private nextSeq = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private lastHeartbeat: NodeHeartbeat | undefined;
  private spillAbandoned = false;
  private readonly state: FlushHealth = {
    lastFlushAt: undefined,
    lastAttemptAt: undefined,
    lastError: undefined,
    consecutiveFailures: 0,
    failedFlushes: 0,
    droppedEvents: 0,
    retainedEvents: 0,
    spilledEvents: 0,
    refusedEvents: 0,
    refusedCells: 0,
    lastDropReason: undefined,
  };

  constructor(private readonly options: FlusherOptions) {
    this.stream = options.stream;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.flushNow(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and makes a last attempt; on failure the counts stay for takeRetained(). */
  stop(): Promise<boolean> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    return this.flushNow(true);
  }

  /**
   * Hands over every count not yet written (after a failed final flush), each batch under its
   * stream and sequence number so a later replay writes it once, and forgets them.
   */
  takeRetained(): { batches: SequencedBatch[]; events: number } {
    this.drainIntoRetained();
    const batches = this.retained.map((r) => this.sequenced(r));
    const events = this.retained.reduce((sum, r) => sum + r.events, 0);
    this.retained = [];
    return { batches, events };
  }

  /** Writes everything pending now, after any flush in progress; answers whether the sink took it. */
  flushNow(final = false): Promise<boolean> {
    const run = this.queue.then(() => this.flushOnce(final));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(final: boolean): Promise<boolean> {
    const now = this.options.now();
    this.state.lastAttemptAt = now;
    this.drainIntoRetained();
    const heartbeat = this.heartbeatAt(now);
    // While the store stays away, an empty write asks whether it is back before the spill (up to
    // its bound, parsed on the event loop the proxy shares) is read for a write that would fail too.
    if (this.state.consecutiveFailures > 0 && this.spilledEvents() > 0) {
      try {
        await this.options.sink.write([], now);
      } catch (error) {
        this.failed(error, final);
        return false;
      }
    }
    const spilled = this.readSpill();
    if (spilled.length === 0 && this.retained.length === 0 && (heartbeat === undefined || !idleHeartbeatDue(this.lastHeartbeat, heartbeat))) {
      // Nothing written proves nothing about the store: keep any error until a real write succeeds.
      this.state.lastFlushAt = now;
      return true;
    }
    const sent = [...this.retained];
    const batches = [...spilled, ...sent.map((r) => this.sequenced(r))];
    try {
      await this.writeOrIsolate(batches, now, heartbeat);
      if (spilled.length > 0) this.options.spill?.clear();
      this.retained = this.retained.filter((r) => !sent.includes(r));
      if (heartbeat !== undefined) this.lastHeartbeat = heartbeat;
      this.succeeded(now);
      return true;
    } catch (error) {
      this.failed(error, final);
      return false;
    }
  }

  /**
   * Writes the batches; when the store refuses them while it answers, the fault is in what they
   * hold, and no retry can cure it: they are written piece by piece, and only the refused cells are
   * lost, counted. A store that does not answer rejects, and the whole write is retried later.
   */
  private async writeOrIsolate(batches: readonly SequencedBatch[], now: number, heartbeat: NodeHeartbeat | undefined): Promise<void> {
    try {
      await this.options.sink.write(batches, now, heartbeat);
      return;
    } catch (error) {
      try {
        await this.options.sink.write([], now);
      } catch {
        throw error;
      }
    }
    const refused = await writeIsolatingRefusals(this.options.sink, batches, now, heartbeat);
    this.refused(refused);
  }

  private refused(refused: readonly RefusedCells[]): void {
    for (const r of refused) {
      this.state.droppedEvents += r.events;
      this.state.refusedEvents += r.events;
      this.state.refusedCells += r.cells + r.sightings;
      this.state.lastDropReason = `the store refused ${r.cells + r.sightings === 1 ? 'a cell' : `${r.cells + r.sightings} cells`}: ${r.reason}`;
    }
  }

  private drainIntoRetained(): void {
    const fresh = this.options.tally.drain();
    if (fresh.cells.length > 0 || fresh.integrations.length > 0) {
      this.retained.push({ seq: batchSeq(this.nextSeq), batch: fresh, attempts: 0, events: eventsOfBatch(fresh) });
      this.nextSeq += 1;
      try {
        this.options.onDrained?.(fresh);
      } catch {
        // The listener counts its own faults; a flush goes on whatever it does.
      }
    }
  }

  /**
   * What the spill holds. Unreadable, it holds nothing this flush can write, and newer batches go
   * on: its batches, lower in sequence, would be skipped by any later write, so their counts are
   * lost here, counted as dropped, and the spill is emptied.
   */
  private readSpill(): SequencedBatch[] {
    if (this.spillAbandoned) return [];
    try {
      return this.options.spill?.read() ?? [];
    } catch (error) {
      this.state.droppedEvents += this.spilledEvents();
      this.state.lastDropReason = `the spill could not be read: ${error instanceof Error ? error.message : String(error)}`;
      try {
        this.options.spill?.clear();
      } catch {
        // Left in place, its batches would be skipped by sequence when read, and counted twice as
        // dropped: the spill is not used again by this process.
        this.spillAbandoned = true;
      }
      return [];
    }
  }

  private sequenced(r: Retained): SequencedBatch {
    return { stream: this.stream, node: this.options.node, seq: r.seq, batch: r.batch };
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
    return { ...this.state, retainedEvents: this.retained.reduce((sum, r) => sum + r.events, 0), spilledEvents: this.spilledEvents() };
  }

  private spilledEvents(): number {
    if (this.spillAbandoned) return 0;
    try {
      return this.options.spill?.events() ?? 0;
    } catch {
      return 0;
    }
  }

  /** Moves batches that ran out of attempts to the spill, in order; answers whether it took them. */
  private spillOut(expired: readonly Retained[]): boolean {
    if (expired.length === 0) return true;
    if (this.spillAbandoned) return false;
    try {
      return this.options.spill?.append(expired.map((r) => this.sequenced(r))) ?? false;
    } catch {
      return false;
    }
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
      this.options.onError?.(error, { attempt: this.state.consecutiveFailures, droppedEvents: 0, spilledEvents: 0, retainedEvents, final });
      return;
    }
    for (const r of this.retained) r.attempts += 1;
    // The oldest batches have had the most attempts, so what leaves memory is always a prefix: in sequence order.
    const keep = this.retained.filter((r) => r.attempts < maxAttempts);
    const expired = this.retained.filter((r) => r.attempts >= maxAttempts);
    let cells = keep.reduce((sum, r) => sum + r.batch.cells.length, 0);
    while (cells > maxCells && keep.length > 0) {
      const oldest = keep.shift()!;
      cells -= oldest.batch.cells.length;
      expired.push(oldest);
    }
    const expiredEvents = expired.reduce((sum, r) => sum + r.events, 0);
    const spilled = this.spillOut(expired) ? expiredEvents : 0;
    const dropped = expiredEvents - spilled;
    this.retained = keep;
    this.state.droppedEvents += dropped;
    if (dropped > 0) this.state.lastDropReason = `the store kept failing (${this.state.lastError}) and the spill could not take them`;
    this.options.onError?.(error, { attempt: this.state.consecutiveFailures, droppedEvents: dropped, spilledEvents: spilled, retainedEvents: this.health().retainedEvents, final });
  }
}
