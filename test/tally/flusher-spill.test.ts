import { batchSeq } from '../../server/tally/batch-seq.js';
import { describe, expect, test } from 'vitest';
import { Flusher, type FlushSpill } from '../../server/tally/flusher.js';
import { Tally, type TallyEntry } from '../../server/tally/tally.js';
import type { NodeHeartbeat, SequencedBatch, TallySink, TallyWrite } from '../../server/tally/tally-cell.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

function entry(): TallyEntry {
  return {
    labels: { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18', method: 'tools/call', kind: 'request', outcome: 'served', integration: 'tok_a' },
    integrationSource: 'bearer-fingerprint',
    clientInfo: undefined,
    claimMismatch: false,
  };
}

const eventsOf = (batches: readonly SequencedBatch[]) => batches.reduce((sum, b) => sum + b.batch.cells.reduce((s, c) => s + c.count, 0), 0);

/** A store that keeps the last sequence number per stream, as both real stores do, and fails while `down`. */
class SequencedSink implements TallySink {
  readonly lastSeq = new Map<string, number>();
  events = 0;
  down = false;
  /** Commits but throws, as a write whose answer was lost does. */
  loseAnswer = false;
  readonly calls: number[][] = [];

  async write(batches: readonly SequencedBatch[], _now: number, _heartbeat?: NodeHeartbeat): Promise<TallyWrite> {
    this.calls.push(batches.map((b) => b.seq));
    if (this.down) throw new Error('connect ECONNREFUSED');
    const result: TallyWrite = { written: 0, skipped: 0, writtenEvents: 0 };
    for (const b of batches) {
      if (b.seq <= (this.lastSeq.get(b.stream) ?? 0)) {
        result.skipped += 1;
        continue;
      }
      this.lastSeq.set(b.stream, b.seq);
      this.events += eventsOf([b]);
      result.written += 1;
      result.writtenEvents += eventsOf([b]);
    }
    if (this.loseAnswer) throw new Error('Connection terminated unexpectedly');
    return result;
  }
}

/** A spill in memory with a bound in batches. */
class MemorySpill implements FlushSpill {
  batches: SequencedBatch[] = [];
  constructor(private readonly maxBatches: number) {}
  append(batches: readonly SequencedBatch[]): boolean {
    if (this.batches.length + batches.length > this.maxBatches) return false;
    this.batches.push(...batches);
    return true;
  }
  read(): SequencedBatch[] {
    return [...this.batches];
  }
  clear(): void {
    this.batches = [];
  }
  events(): number {
    return eventsOf(this.batches);
  }
}

function setup(maxSpilled: number) {
  const tally = new Tally({ node: 'n', now: () => T0 });
  const sink = new SequencedSink();
  const spill = new MemorySpill(maxSpilled);
  const contexts: { droppedEvents: number; spilledEvents: number }[] = [];
  const flusher = new Flusher({ tally, node: 'n', stream: 'stream-1', sink, spill, now: () => T0, intervalMs: 1_000, maxAttempts: 2, onError: (_e, c) => contexts.push(c) });
  let sent = 0;
  const add = (count: number) => {
    for (let i = 0; i < count; i += 1) tally.add(entry());
    sent += count;
  };
  return { sink, spill, flusher, contexts, add, sent: () => sent };
}

describe('Flusher with a spill', () => {
  test('batches that run out of attempts go to the spill, and the first write the store takes carries them first, in sequence order', async () => {
    const { sink, spill, flusher, add, sent, contexts } = setup(100);
    sink.down = true;
    for (let i = 0; i < 6; i += 1) {
      add(i + 1);
      expect(await flusher.flushNow()).toBe(false);
    }
    expect(spill.batches.map((b) => b.seq)).toEqual([1, 2, 3, 4, 5].map(batchSeq));
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, spilledEvents: 15, retainedEvents: 6 });
    expect(contexts.some((c) => c.spilledEvents > 0)).toBe(true);

    sink.down = false;
    add(10);
    expect(await flusher.flushNow()).toBe(true);
    expect(sink.calls.at(-1)).toEqual([1, 2, 3, 4, 5, 6, 7].map(batchSeq));
    expect(sink.events).toBe(sent());
    expect(spill.batches).toEqual([]);
    expect(flusher.health()).toMatchObject({ droppedEvents: 0, spilledEvents: 0, retainedEvents: 0 });
  });

  test('past its bound the spill takes nothing more, and what it refused is dropped and counted', async () => {
    const { sink, spill, flusher, add } = setup(1);
    sink.down = true;
    for (let i = 0; i < 4; i += 1) {
      add(1);
      await flusher.flushNow();
    }
    // Two attempts each: batch 1 ran out at the 2nd flush and fit; batches 2 and 3 ran out at the 3rd and
    // 4th, found the spill full and were dropped; batch 4 has had one attempt.
    expect(spill.batches.map((b) => b.seq)).toEqual([batchSeq(1)]);
    expect(flusher.health()).toMatchObject({ spilledEvents: 1, droppedEvents: 2, retainedEvents: 1 });
  });

  test('a write that committed but lost its answer is not counted twice when it is retried', async () => {
    const { sink, flusher, add, sent } = setup(100);
    add(3);
    sink.loseAnswer = true;
    expect(await flusher.flushNow()).toBe(false);
    sink.loseAnswer = false;
    add(2);
    expect(await flusher.flushNow()).toBe(true);
    // The store answered no empty write either, so nothing was refused: the whole write is retried.
    expect(sink.calls).toEqual([[batchSeq(1)], [], [batchSeq(1), batchSeq(2)]]);
    expect(sink.events).toBe(sent());
  });

  test('flushes asked for at once run one after the other, each writing what was pending when it ran', async () => {
    const { sink, flusher, add, sent } = setup(100);
    add(1);
    const first = flusher.flushNow();
    add(1);
    const second = flusher.flushNow();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(sink.events).toBe(sent());
    expect(sink.calls.flat()).toEqual([...new Set(sink.calls.flat())]);
  });
});

describe('Flusher with a spill, while the store stays away', () => {
  test('the spill is not read again until an empty write finds the store back; then it is read once and written first', async () => {
    const { sink, spill, flusher, add, sent } = setup(100);
    let reads = 0;
    const read = spill.read.bind(spill);
    spill.read = () => {
      reads += 1;
      return read();
    };
    sink.down = true;
    for (let i = 0; i < 3; i += 1) {
      add(1);
      await flusher.flushNow();
    }
    expect(spill.batches.length).toBeGreaterThan(0);
    const readsWhileDown = reads;
    for (let i = 0; i < 5; i += 1) {
      add(1);
      await flusher.flushNow();
    }
    // Each of these flushes stopped at its empty probe.
    expect(reads).toBe(readsWhileDown);
    expect(sink.calls.slice(-5)).toEqual([[], [], [], [], []]);

    sink.down = false;
    expect(await flusher.flushNow()).toBe(true);
    expect(reads).toBe(readsWhileDown + 1);
    expect(sink.events).toBe(sent());
    expect(spill.batches).toEqual([]);
  });
});
