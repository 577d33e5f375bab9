import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { Flusher, type FlusherOptions } from '../../server/tally/flusher.js';
import { Tally, type TallyEntry } from '../../server/tally/tally.js';
import type { TallyBatch, TallySink } from '../../server/tally/tally-cell.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

function entry(method = 'tools/call'): TallyEntry {
  return {
    labels: { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18', method, kind: 'request', outcome: 'served', integration: 'tok_a' },
    integrationSource: 'bearer-fingerprint',
    clientInfo: undefined,
    claimMismatch: false,
  };
}

/** A sink that keeps what it was given and fails while `down` is set. */
class FakeSink implements TallySink {
  readonly written: TallyBatch[] = [];
  attempts = 0;
  down = false;

  write(batch: TallyBatch): void {
    this.attempts += 1;
    if (this.down) throw new Error('database is locked');
    this.written.push(batch);
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
  const errors: { attempt: number; droppedEvents: number; retainedEvents: number; final: boolean }[] = [];
  const flusher = new Flusher({
    tally,
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

  test('an empty flush after a failure keeps the error: nothing written proves nothing', () => {
    const { sink, flusher, add, advance } = setup({ maxAttempts: 1 });
    sink.down = true;
    add(2);
    expect(flusher.flushNow()).toBe(false);
    advance(1_000);
    expect(flusher.flushNow()).toBe(true);
    expect(flusher.health()).toMatchObject({ lastFlushAt: T0 + 1_000, lastError: 'database is locked', consecutiveFailures: 1, droppedEvents: 2 });
    sink.down = false;
    add(1);
    expect(flusher.flushNow()).toBe(true);
    expect(flusher.health()).toMatchObject({ lastError: undefined, consecutiveFailures: 0 });
  });

  test('writes what the tally holds in one batch and reports a healthy flush', () => {
    const { sink, flusher, add, tally } = setup();
    add(3);
    add(2, 'tools/list');
    expect(flusher.flushNow()).toBe(true);
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
    });
  });

  test('does not call the sink when there is nothing to write', () => {
    const { sink, flusher } = setup();
    expect(flusher.flushNow()).toBe(true);
    expect(sink.attempts).toBe(0);
    expect(flusher.health().lastFlushAt).toBe(T0);
  });

  test('a throwing sink never throws back: the batch is retained and written with the next one', () => {
    const { sink, flusher, add, advance } = setup();
    add(3);
    sink.down = true;
    expect(flusher.flushNow()).toBe(false);
    expect(flusher.health()).toMatchObject({ lastFlushAt: undefined, lastError: 'database is locked', consecutiveFailures: 1, failedFlushes: 1, retainedEvents: 3, droppedEvents: 0 });
    advance(1_000);
    add(2, 'tools/list');
    sink.down = false;
    expect(flusher.flushNow()).toBe(true);
    expect(sink.methods()).toEqual(['tools/call×3', 'tools/list×2']);
    expect(flusher.health()).toMatchObject({ lastFlushAt: T0 + 1_000, lastError: undefined, consecutiveFailures: 0, failedFlushes: 1, retainedEvents: 0, droppedEvents: 0 });
  });

  test('after maxAttempts failures a batch is dropped and droppedEvents counts exactly its events', () => {
    const { sink, flusher, add, errors } = setup({ maxAttempts: 3 });
    sink.down = true;
    add(5);
    flusher.flushNow();
    add(2, 'tools/list');
    flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, retainedEvents: 7 });
    flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 5, retainedEvents: 2 });
    flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 7, retainedEvents: 0, consecutiveFailures: 4, failedFlushes: 4 });
    expect(errors).toEqual([
      { attempt: 1, droppedEvents: 0, retainedEvents: 5, final: false },
      { attempt: 2, droppedEvents: 0, retainedEvents: 7, final: false },
      { attempt: 3, droppedEvents: 5, retainedEvents: 2, final: false },
      { attempt: 4, droppedEvents: 2, retainedEvents: 0, final: false },
    ]);
    sink.down = false;
    add(1);
    expect(flusher.flushNow()).toBe(true);
    expect(sink.events).toBe(1);
  });

  test('past maxRetainedCells the oldest retained batches are dropped first', () => {
    const { sink, flusher, add } = setup({ maxRetainedCells: 3 });
    sink.down = true;
    add(4, 'a');
    add(1, 'b');
    flusher.flushNow();
    add(2, 'c');
    flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, retainedEvents: 7 });
    add(3, 'd');
    flusher.flushNow();
    expect(flusher.health()).toMatchObject({ droppedEvents: 5, retainedEvents: 5 });
    sink.down = false;
    flusher.flushNow();
    expect(sink.methods()).toEqual(['c×2', 'd×3']);
  });

  test('stop() makes a final attempt and answers whether the sink took it', () => {
    const ok = setup();
    ok.add(2);
    expect(ok.flusher.stop()).toBe(true);
    expect(ok.sink.events).toBe(2);

    const failing = setup();
    failing.add(2);
    failing.sink.down = true;
    expect(failing.flusher.stop()).toBe(false);
    expect(failing.flusher.health().retainedEvents).toBe(2);
  });

  test('start() flushes every interval, once however often it is called, until stop()', () => {
    vi.useFakeTimers();
    const { sink, flusher, add } = setup();
    flusher.start();
    flusher.start();
    add(1);
    vi.advanceTimersByTime(1_000);
    expect(sink.attempts).toBe(1);
    add(1);
    vi.advanceTimersByTime(1_000);
    expect(sink.attempts).toBe(2);
    add(1);
    flusher.stop();
    expect(sink.attempts).toBe(3);
    add(1);
    vi.advanceTimersByTime(5_000);
    expect(sink.attempts).toBe(3);
    expect(sink.events).toBe(3);
  });

  test('every added event is written, dropped, retained or still pending, whatever the sink does (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), count: fc.integer({ min: 1, max: 4 }), method: fc.constantFrom('a', 'b', 'c', 'd') }),
      fc.record({ kind: fc.constant('flush' as const), sinkDown: fc.boolean() }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(op, { maxLength: 60 }),
        (maxAttempts, maxRetainedCells, ops) => {
          const { sink, flusher, add, tally } = setup({ maxAttempts, maxRetainedCells });
          let added = 0;
          for (const o of ops) {
            if (o.kind === 'add') {
              add(o.count, o.method);
              added += o.count;
            } else {
              sink.down = o.sinkDown;
              flusher.flushNow();
            }
          }
          const health = flusher.health();
          expect(sink.events + health.droppedEvents + health.retainedEvents + tally.stats().pendingEvents).toBe(added);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a failed final flush drops nothing, even past maxAttempts, and hands every count over once', () => {
    const { sink, flusher, add, errors } = setup({ maxAttempts: 1 });
    sink.down = true;
    add(4);
    flusher.start();
    expect(flusher.stop()).toBe(false);
    add(2, 'tools/list');
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, retainedEvents: 4 });
    expect(errors).toEqual([{ attempt: 1, droppedEvents: 0, retainedEvents: 4, final: true }]);
    const { batch, events } = flusher.takeRetained();
    expect(events).toBe(6);
    expect(batch.cells.reduce((sum, cell) => sum + cell.count, 0)).toBe(6);
    expect(flusher.takeRetained().events).toBe(0);
    expect(flusher.health().retainedEvents).toBe(0);
  });
});
