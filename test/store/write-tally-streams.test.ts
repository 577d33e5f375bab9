import { asc } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sidecarNodesTable, tallyStreamsTable, trafficMinuteTable } from '../../server/store/sqlite/schema/index.js';
import { createStreamWriter } from '../../server/store/sqlite/write-tally-streams.js';
import { Flusher } from '../../server/tally/flusher.js';
import type { NodeHeartbeat, SequencedBatch, TallyCell, TallyWrite } from '../../server/tally/tally-cell.js';
import { Tally } from '../../server/tally/tally.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

const NOON = Date.UTC(2026, 10, 30, 12, 0);

function sequenced(stream: string, seq: number, cells: Partial<TallyCell>[], node = 'node-1'): SequencedBatch {
  return { stream, node, seq, batch: { cells: cells.map((c) => trafficCell({ node, ...c })), integrations: [] } };
}

describe('createStreamWriter', () => {
  let db: TempDatabase;
  let write: (batches: readonly SequencedBatch[], now: number, heartbeat?: NodeHeartbeat) => TallyWrite;
  beforeEach(() => {
    db = openTempDatabase();
    write = createStreamWriter(db.store.db);
  });
  afterEach(() => db.dispose());

  const stored = () => db.store.db.select().from(trafficMinuteTable).all().reduce((sum, row) => sum + row.count, 0);
  const streams = () => db.store.db.select().from(tallyStreamsTable).orderBy(asc(tallyStreamsTable.stream)).all();

  test('writes each (stream, seq) once: the same batches offered again add nothing and are counted as skipped', () => {
    const batches = [sequenced('s1', 1, [{ count: 3 }]), sequenced('s1', 2, [{ method: 'tools/list', count: 4 }])];
    expect(write(batches, NOON)).toEqual({ written: 2, skipped: 0, writtenEvents: 7 });
    expect(stored()).toBe(7);
    expect(write(batches, NOON + 1_000)).toEqual({ written: 0, skipped: 2, writtenEvents: 0 });
    expect(stored()).toBe(7);
  });

  test('a retry after part of a flush landed writes only the batches above the stream\'s last number', () => {
    write([sequenced('s1', 1, [{ count: 3 }])], NOON);
    expect(write([sequenced('s1', 1, [{ count: 3 }]), sequenced('s1', 2, [{ count: 5 }])], NOON + 1_000)).toEqual({ written: 1, skipped: 1, writtenEvents: 5 });
    expect(stored()).toBe(8);
  });

  test('a number at or below the stream\'s last is skipped whatever the batch holds; a gap above it is written', () => {
    write([sequenced('s1', 5, [{ count: 1 }])], NOON);
    expect(write([sequenced('s1', 4, [{ count: 100 }]), sequenced('s1', 5, [{ count: 100 }])], NOON)).toMatchObject({ written: 0, skipped: 2 });
    expect(write([sequenced('s1', 9, [{ count: 2 }])], NOON)).toMatchObject({ written: 1, skipped: 0 });
    expect(stored()).toBe(3);
  });

  test('streams are apart: the same number in two streams is written for each', () => {
    expect(write([sequenced('s1', 1, [{ count: 3 }]), sequenced('s2', 1, [{ count: 4 }], 'node-2')], NOON)).toEqual({ written: 2, skipped: 0, writtenEvents: 7 });
    expect(stored()).toBe(7);
    expect(streams()).toEqual([
      { stream: 's1', node: 'node-1', lastSeq: 1, updatedAt: NOON },
      { stream: 's2', node: 'node-2', lastSeq: 1, updatedAt: NOON },
    ]);
  });

  test('records each stream\'s node, last number and when it last moved', () => {
    write([sequenced('s1', 1, [{}])], NOON);
    write([sequenced('s1', 2, [{}])], NOON + 5_000);
    write([sequenced('s1', 2, [{}])], NOON + 9_000);
    expect(streams()).toEqual([{ stream: 's1', node: 'node-1', lastSeq: 2, updatedAt: NOON + 5_000 }]);
  });

  test('one transaction: a bad batch leaves no counts and no moved number behind, and the retry writes all of it once', () => {
    const good = sequenced('s1', 1, [{ count: 3 }]);
    const bad = sequenced('s1', 2, [{ era: null as never }]);
    expect(() => write([good, bad], NOON)).toThrow();
    expect(stored()).toBe(0);
    expect(streams()).toEqual([]);
    expect(write([good, sequenced('s1', 2, [{ count: 4 }])], NOON)).toEqual({ written: 2, skipped: 0, writtenEvents: 7 });
    expect(stored()).toBe(7);
  });

  test('the heartbeat is written beside the batches, even when every batch was written before', () => {
    const beat = (at: number): NodeHeartbeat => ({ node: 'node-1', kind: 'serve', at, policyVersion: 1, startedAt: NOON - 60_000 });
    const batches = [sequenced('s1', 1, [{ count: 2 }])];
    write(batches, NOON, beat(NOON));
    write(batches, NOON + 1_000, beat(NOON + 1_000));
    expect(db.store.db.select().from(sidecarNodesTable).all()).toEqual([expect.objectContaining({ node: 'node-1', lastFlushAt: NOON + 1_000 })]);
    expect(stored()).toBe(2);
  });
});

describe('Store.writeTally under a flusher whose store committed but lost its answer', () => {
  let db: TempDatabase;
  beforeEach(() => {
    db = openTempDatabase();
  });
  afterEach(() => db.dispose());

  test('every event is stored exactly once: the retry of the landed batch is skipped', async () => {
    let now = NOON;
    const tally = new Tally({ node: 'node-1', now: () => now });
    let loseAnswer = true;
    const results: TallyWrite[] = [];
    const flusher = new Flusher({
      tally,
      node: 'node-1',
      stream: 'stream-1',
      now: () => now,
      intervalMs: 1_000,
      sink: {
        write: async (batches, at, heartbeat) => {
          const result = await db.backend.writeTally(batches, at, heartbeat);
          results.push(result);
          if (loseAnswer) throw new Error('connection reset');
          return result;
        },
      },
    });
    const add = (count: number) => {
      for (let i = 0; i < count; i += 1) {
        tally.add({ labels: { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18', method: 'tools/call', kind: 'request', outcome: 'served', integration: 'tok_a' }, integrationSource: 'bearer-fingerprint', clientInfo: undefined, claimMismatch: false });
      }
    };
    add(3);
    expect(await flusher.flushNow()).toBe(false);
    loseAnswer = false;
    now += 1_000;
    add(2);
    expect(await flusher.flushNow()).toBe(true);
    expect(results).toEqual([
      { written: 1, skipped: 0, writtenEvents: 3 },
      // The empty write that asks whether the store answers at all: it did not, so nothing was refused.
      { written: 0, skipped: 0, writtenEvents: 0 },
      { written: 1, skipped: 1, writtenEvents: 2 },
    ]);
    expect(db.store.db.select().from(trafficMinuteTable).all().reduce((sum, row) => sum + row.count, 0)).toBe(5);
  });
});
