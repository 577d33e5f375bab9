import { batchSeq } from '../../server/tally/batch-seq.js';
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Flusher, type FlusherOptions } from '../../server/tally/flusher.js';
import { Tally, type TallyEntry } from '../../server/tally/tally.js';
import type { NodeHeartbeat, SequencedBatch, TallyBatch, TallySink, TallyWrite } from '../../server/tally/tally-cell.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

function entry(method = 'tools/call'): TallyEntry {
  return {
    labels: { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18', method, kind: 'request', outcome: 'served', integration: 'tok_a' },
    integrationSource: 'bearer-fingerprint',
    clientInfo: undefined,
    claimMismatch: false,
  };
}

/**
 * A sink that keeps what it was given and fails while `down` is set; with `loseAnswer` set it keeps
 * the batches and then fails, as a store whose commit landed but whose answer never came back.
 */
class FakeSink implements TallySink {
  readonly written: TallyBatch[] = [];
  /** Every batch offered, with its stream and sequence number, in the order offered. */
  readonly offered: SequencedBatch[] = [];
  attempts = 0;
  down = false;
  loseAnswer = false;
  /** While set, a write waits for it before answering; `onWrite` hears that a write began. */
  hold: Promise<void> | undefined;
  onWrite: (() => void) | undefined;

  async write(batches: readonly SequencedBatch[], _now: number, _heartbeat?: NodeHeartbeat): Promise<TallyWrite> {
    this.attempts += 1;
    this.offered.push(...batches);
    this.onWrite?.();
    if (this.hold !== undefined) await this.hold;
    if (this.down) throw new Error('database is locked');
    this.written.push(...batches.map((b) => b.batch));
    if (this.loseAnswer) throw new Error('connection reset');
    return { written: batches.length, skipped: 0, writtenEvents: batches.reduce((sum, b) => sum + b.batch.cells.reduce((s, c) => s + c.count, 0), 0) };
  }

  get events(): number {
    return this.written.reduce((sum, b) => sum + b.cells.reduce((s, c) => s + c.count, 0), 0);
  }

  methods(): string[] {
    return this.written.flatMap((b) => b.cells.map((c) => `${c.method}×${c.count}`));
  }
}

function setup(options: Partial<Omit<FlusherOptions, 'tally' | 'sink' | 'now'>> = {}) {
  let now = T0;
  const tally = new Tally({ node: 'n', now: () => now });
  const sink = new FakeSink();
  const errors: { attempt: number; droppedEvents: number; spilledEvents: number; retainedEvents: number; final: boolean }[] = [];
  const flusher = new Flusher({
    tally,
    node: 'n',
    stream: 'stream-1',
    sink,
    now: () => now,
    intervalMs: 1_000,
    onError: (_error, context) => errors.push(context),
    ...options,
  });
  const add = (count: number, method = 'tools/call') => {
    for (let i = 0; i < count; i += 1) tally.add(entry(method));
  };
  return { tally, sink, flusher, errors, add, advance: (ms: number) => (now += ms) };
}

describe('Flusher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('an empty flush after a failure keeps the error: nothing written proves nothing', async () => {
    const { sink, flusher, add, advance } = setup({ maxAttempts: 1 });
    sink.down = true;
    add(2);
    expect(await flusher.flushNow()).toBe(false);
    advance(1_000);
    expect(await flusher.flushNow()).toBe(true);
    expect(flusher.health()).toMatchObject({ lastFlushAt: T0 + 1_000, lastError: 'database is locked', consecutiveFailures: 1, droppedEvents: 2 });
    sink.down = false;
    add(1);
    expect(await flusher.flushNow()).toBe(true);
    expect(flusher.health()).toMatchObject({ lastError: undefined, consecutiveFailures: 0 });
  });

  test('writes what the tally holds in one batch and reports a healthy flush', async () => {
    const { sink, flusher, add, tally } = setup();
    add(3);
    add(2, 'tools/list');
    expect(await flusher.flushNow()).toBe(true);
    expect(sink.methods()).toEqual(['tools/call×3', 'tools/list×2']);
    expect(sink.written[0]?.integrations.map((i) => i.key)).toEqual(['tok_a']);
    expect(tally.stats().pendingEvents).toBe(0);
    expect(flusher.health()).toEqual({
      lastFlushAt: T0,
      lastAttemptAt: T0,
      lastError: undefined,
      consecutiveFailures: 0,
      failedFlushes: 0,
      droppedEvents: 0,
      retainedEvents: 0,
      spilledEvents: 0,
      refusedEvents: 0,
      refusedCells: 0,
      lastDropReason: undefined,
    });
  });

  test('tells each batch as it leaves the tally, once, failed writes included; a listener that throws costs it nothing', async () => {
    const drained: TallyBatch[] = [];
    const { flusher, sink, add } = setup({
      onDrained: (batch) => {
        drained.push(batch);
        throw new Error('listener fault');
      },
    });
    add(2);
    sink.down = true;
    await flusher.flushNow();
    add(1, 'tools/list');
    sink.down = false;
    await flusher.flushNow();
    expect(drained.map((b) => b.cells.map((c) => `${c.method}×${c.count}`))).toEqual([['tools/call×2'], ['tools/list×1']]);
    expect(sink.methods().sort()).toEqual(['tools/call×2', 'tools/list×1']);
    expect(flusher.health().droppedEvents).toBe(0);
  });

  test('does not call the sink when there is nothing to write', async () => {
    const { sink, flusher } = setup();
    expect(await flusher.flushNow()).toBe(true);
    expect(sink.attempts).toBe(0);
    expect(flusher.health().lastFlushAt).toBe(T0);
  });

  test('a throwing sink never throws back: the batch is retained and written with the next one', async () => {
    const { sink, flusher, add, advance } = setup();
    add(3);
    sink.down = true;
    expect(await flusher.flushNow()).toBe(false);
    expect(flusher.health()).toMatchObject({ lastFlushAt: undefined, lastError: 'database is locked', consecutiveFailures: 1, failedFlushes: 1, retainedEvents: 3, droppedEvents: 0 });
    advance(1_000);
    add(2, 'tools/list');
    sink.down = false;
    expect(await flusher.flushNow()).toBe(true);
    expect(sink.methods()).toEqual(['tools/call×3', 'tools/list×2']);
    expect(flusher.health()).toMatchObject({ lastFlushAt: T0 + 1_000, lastError: undefined, consecutiveFailures: 0, failedFlushes: 1, retainedEvents: 0, droppedEvents: 0 });
  });

  test('after maxAttempts failures a batch is dropped and droppedEvents counts exactly its events', async () => {
    const { sink, flusher, add, errors } = setup({ maxAttempts: 3 });
    sink.down = true;
    add(5);
    await flusher.flushNow();
    add(2, 'tools/list');
    await flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, retainedEvents: 7 });
    await flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 5, retainedEvents: 2 });
    await flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 7, retainedEvents: 0, consecutiveFailures: 4, failedFlushes: 4 });
    expect(errors).toEqual([
      { attempt: 1, droppedEvents: 0, spilledEvents: 0, retainedEvents: 5, final: false },
      { attempt: 2, droppedEvents: 0, spilledEvents: 0, retainedEvents: 7, final: false },
      { attempt: 3, droppedEvents: 5, spilledEvents: 0, retainedEvents: 2, final: false },
      { attempt: 4, droppedEvents: 2, spilledEvents: 0, retainedEvents: 0, final: false },
    ]);
    sink.down = false;
    add(1);
    expect(await flusher.flushNow()).toBe(true);
    expect(sink.events).toBe(1);
  });

  test('past maxRetainedCells the oldest retained batches are dropped first', async () => {
    const { sink, flusher, add } = setup({ maxRetainedCells: 3 });
    sink.down = true;
    add(4, 'a');
    add(1, 'b');
    await flusher.flushNow();
    add(2, 'c');
    await flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, retainedEvents: 7 });
    add(3, 'd');
    await flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 5, retainedEvents: 5 });
    sink.down = false;
    await flusher.flushNow();
    expect(sink.methods()).toEqual(['c×2', 'd×3']);
  });

  test('stop() makes a final attempt and answers whether the sink took it', async () => {
    const ok = setup();
    ok.add(2);
    expect(await ok.flusher.stop()).toBe(true);
    expect(ok.sink.events).toBe(2);

    const failing = setup();
    failing.add(2);
    failing.sink.down = true;
    expect(await failing.flusher.stop()).toBe(false);
    expect(failing.flusher.health().retainedEvents).toBe(2);
  });

  test('start() flushes every interval, once however often it is called, until stop()', async () => {
    vi.useFakeTimers();
    const { sink, flusher, add } = setup();
    flusher.start();
    flusher.start();
    add(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sink.attempts).toBe(1);
    add(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sink.attempts).toBe(2);
    add(1);
    await flusher.stop();
    expect(sink.attempts).toBe(3);
    add(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sink.attempts).toBe(3);
    expect(sink.events).toBe(3);
  });

  test('every added event is written, dropped, retained or still pending, whatever the sink does (property)', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 4 }), method: fc.constantFrom('a', 'b', 'c', 'd') }),
      fc.record({ kind: fc.constant('flush' as const), sinkDown: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(op, { maxLength: 60 }),
        async (maxAttempts, maxRetainedCells, ops) => {
          const { sink, flusher, add, tally } = setup({ maxAttempts, maxRetainedCells });
          let added = 0;
          for (const o of ops) {
            if (o.kind === 'add') {
              add(o.count, o.method);
              added += o.count;
            } else {
              sink.down = o.sinkDown;
              await flusher.flushNow();
            }
          }
          const health = flusher.health();
          expect(sink.events + health.droppedEvents + health.retainedEvents + tally.stats().pendingEvents).toBe(added);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a failed final flush drops nothing, even past maxAttempts, and hands every count over once', async () => {
    const { sink, flusher, add, errors } = setup({ maxAttempts: 1 });
    sink.down = true;
    add(4);
    flusher.start();
    expect(await flusher.stop()).toBe(false);
    add(2, 'tools/list');
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, retainedEvents: 4 });
    expect(errors).toEqual([{ attempt: 1, droppedEvents: 0, spilledEvents: 0, retainedEvents: 4, final: true }]);
    const { batches, events } = flusher.takeRetained();
    expect(events).toBe(6);
    expect(batches.reduce((sum, b) => sum + b.batch.cells.reduce((s, cell) => s + cell.count, 0), 0)).toBe(6);
    // Each under this flusher's stream and its own number, so a replay writes each once.
    expect(batches.map((b) => [b.stream, b.node, b.seq])).toEqual([
      [flusher.stream, 'n', batchSeq(1)],
      [flusher.stream, 'n', batchSeq(2)],
    ]);
    expect(flusher.takeRetained().events).toBe(0);
    expect(flusher.health().retainedEvents).toBe(0);
  });

  test('each drained batch gets the next number of the stream and keeps it through every retry', async () => {
    const { sink, flusher, add } = setup();
    sink.down = true;
    add(3);
    await flusher.flushNow();
    add(2, 'tools/list');
    await flusher.flushNow();
    sink.down = false;
    await flusher.flushNow();
    add(1, 'tools/list');
    await flusher.flushNow();
    expect(sink.offered.map((b) => [b.stream, b.node, b.seq, b.batch.cells.map((c) => `${c.method}×${c.count}`)])).toEqual([
      [flusher.stream, 'n', batchSeq(1), ['tools/call×3']],
      [flusher.stream, 'n', batchSeq(1), ['tools/call×3']],
      [flusher.stream, 'n', batchSeq(2), ['tools/list×2']],
      [flusher.stream, 'n', batchSeq(1), ['tools/call×3']],
      [flusher.stream, 'n', batchSeq(2), ['tools/list×2']],
      [flusher.stream, 'n', batchSeq(3), ['tools/list×1']],
    ]);
  });

  test('a write whose answer was lost is offered again under the same numbers, for the store to skip', async () => {
    const { sink, flusher, add } = setup();
    add(3);
    sink.loseAnswer = true;
    expect(await flusher.flushNow()).toBe(false);
    sink.loseAnswer = false;
    add(1, 'tools/list');
    expect(await flusher.flushNow()).toBe(true);
    expect(sink.offered.map((b) => b.seq)).toEqual([batchSeq(1), batchSeq(1), batchSeq(2)]);
  });

  test('writes under the stream it is given (the pipeline gives each process a fresh one)', async () => {
    const { sink, flusher, add } = setup({ stream: 'stream-x' });
    add(1);
    expect(await flusher.flushNow()).toBe(true);
    expect(flusher.stream).toBe('stream-x');
    expect(sink.offered.map((b) => b.stream)).toEqual(['stream-x']);
  });

  test('a flush asked for while one runs waits for it: batches reach the sink in order, once each', async () => {
    const { sink, flusher, add } = setup();
    let release!: () => void;
    let started!: () => void;
    const writing = new Promise<void>((resolve) => (started = resolve));
    sink.hold = new Promise<void>((resolve) => (release = resolve));
    sink.onWrite = started;
    add(2);
    const first = flusher.flushNow();
    await writing;
    add(1, 'tools/list');
    const second = flusher.flushNow();
    // The second waits behind the first, which the sink still holds.
    await Promise.resolve();
    expect(sink.attempts).toBe(1);
    release();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(sink.attempts).toBe(2);
    expect(sink.offered.map((b) => b.seq)).toEqual([batchSeq(1), batchSeq(2)]);
    expect(sink.methods()).toEqual(['tools/call×2', 'tools/list×1']);
  });
});
