import { asc } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { integrationsTable, sidecarNodesTable, trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from '../../server/store/sqlite/schema/index.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { Flusher } from '../../server/tally/flusher.js';
import { IDLE_HEARTBEAT_EVERY_MS } from '../../server/tally/idle-heartbeat-due.js';
import type { IntegrationSighting, NodeHeartbeat, TallyBatch, TallyCell } from '../../server/tally/tally-cell.js';
import { Tally } from '../../server/tally/tally.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

const NOON = Date.UTC(2026, 10, 30, 12, 0);
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

function sighting(overrides: Partial<IntegrationSighting> = {}): IntegrationSighting {
  return { key: 'tok_a', source: 'bearer-fingerprint', firstSeen: NOON, lastSeen: NOON, lastLegacySeen: undefined, clientInfo: undefined, ...overrides };
}

describe('createTallyWriter', () => {
  let db: TempDatabase;
  let write: (batch: TallyBatch, heartbeat?: NodeHeartbeat) => void;

  beforeEach(() => {
    db = openTempDatabase();
    write = createTallyWriter(db.store.db);
  });
  afterEach(() => db.dispose());

  function rows(table: TrafficTable) {
    return db.store.db
      .select({ bucketStart: table.bucketStart, method: table.method, count: table.count, mismatchCount: table.mismatchCount })
      .from(table)
      .orderBy(asc(table.bucketStart), asc(table.method))
      .all();
  }

  function integrations() {
    return db.store.db.select().from(integrationsTable).orderBy(asc(integrationsTable.key)).all();
  }

  test('upserts each cell into its minute, hour and day bucket', () => {
    write({
      cells: [
        trafficCell({ minute: NOON + MINUTE, count: 2, mismatchCount: 1 }),
        trafficCell({ minute: NOON + 2 * MINUTE, count: 3 }),
        trafficCell({ minute: NOON + HOUR, count: 4 }),
      ],
      integrations: [],
    });
    expect(rows(trafficMinuteTable)).toEqual([
      { bucketStart: NOON + MINUTE, method: 'tools/call', count: 2, mismatchCount: 1 },
      { bucketStart: NOON + 2 * MINUTE, method: 'tools/call', count: 3, mismatchCount: 0 },
      { bucketStart: NOON + HOUR, method: 'tools/call', count: 4, mismatchCount: 0 },
    ]);
    expect(rows(trafficHourTable)).toEqual([
      { bucketStart: NOON, method: 'tools/call', count: 5, mismatchCount: 1 },
      { bucketStart: NOON + HOUR, method: 'tools/call', count: 4, mismatchCount: 0 },
    ]);
    expect(rows(trafficDayTable)).toEqual([{ bucketStart: NOON - 12 * HOUR, method: 'tools/call', count: 9, mismatchCount: 1 }]);
  });

  test('sums counts and mismatches on conflict, across flushes', () => {
    const batch = { cells: [trafficCell({ count: 2, mismatchCount: 1 })], integrations: [] };
    write(batch);
    write(batch);
    write({ cells: [trafficCell({ count: 5 })], integrations: [] });
    for (const table of [trafficMinuteTable, trafficHourTable, trafficDayTable]) {
      expect(rows(table).map((r) => [r.count, r.mismatchCount])).toEqual([[9, 2]]);
    }
  });

  test('keeps cells apart that differ in any one label', () => {
    const variants: Partial<TallyCell>[] = [{}, { node: 'node-2' }, { era: 'modern' }, { transport: 'stdio' }, { reason: 'batch' }, { version: '2025-03-26' }, { method: 'x' }, { outcome: 'cancelled' }, { integration: 'tok_b' }];
    write({ cells: variants.map((v) => trafficCell(v)), integrations: [] });
    expect(db.store.db.select().from(trafficDayTable).all()).toHaveLength(variants.length);
  });

  test('writes a flush in one transaction: a bad cell leaves nothing behind', () => {
    const bad = { ...trafficCell({ method: 'broken' }), era: null } as unknown as TallyCell;
    expect(() => write({ cells: [trafficCell({ count: 3 }), bad], integrations: [sighting()] })).toThrow();
    expect(rows(trafficMinuteTable)).toEqual([]);
    expect(rows(trafficDayTable)).toEqual([]);
    expect(integrations()).toEqual([]);
  });

  describe('integrations', () => {
    test('are inserted with their sighting', () => {
      write({ cells: [], integrations: [sighting({ firstSeen: 1_000, lastSeen: 2_000, lastLegacySeen: 1_500, clientInfo: { name: 'cli', version: '1.2' } })] });
      expect(integrations()).toEqual([
        {
          key: 'tok_a',
          source: 'bearer-fingerprint',
          firstSeen: 1_000,
          lastSeen: 2_000,
          lastLegacySeen: 1_500,
          clientInfoName: 'cli',
          clientInfoVersion: '1.2',
          // What operators edit starts empty; a sighting never touches it.
          displayName: null,
          owner: null,
          contact: null,
          status: 'unknown',
          notes: null,
          updatedAt: null,
          autoClosedAt: null,
          statusBeforeClose: null,
          reopenedAt: null,
          // Fetched by its own job, when turned on; a sighting never sets it.
          clientName: null,
          clientNameAt: null,
        },
      ]);
    });

    test('keep the earliest first seen and the latest last seen, whatever order flushes land in', () => {
      write({ cells: [], integrations: [sighting({ firstSeen: 5_000, lastSeen: 6_000 })] });
      write({ cells: [], integrations: [sighting({ firstSeen: 1_000, lastSeen: 2_000 })] });
      write({ cells: [], integrations: [sighting({ firstSeen: 7_000, lastSeen: 9_000 })] });
      expect(integrations().map((i) => [i.firstSeen, i.lastSeen])).toEqual([[1_000, 9_000]]);
    });

    test('keep the latest last legacy seen, and never lose it to a sighting without one', () => {
      write({ cells: [], integrations: [sighting({ lastLegacySeen: 4_000 })] });
      write({ cells: [], integrations: [sighting({ lastLegacySeen: undefined })] });
      expect(integrations()[0]?.lastLegacySeen).toBe(4_000);
      write({ cells: [], integrations: [sighting({ lastLegacySeen: 3_000 })] });
      expect(integrations()[0]?.lastLegacySeen).toBe(4_000);
      write({ cells: [], integrations: [sighting({ lastLegacySeen: 8_000 })] });
      expect(integrations()[0]?.lastLegacySeen).toBe(8_000);
    });

    test('keep last legacy seen null for a caller never seen on the legacy path', () => {
      write({ cells: [], integrations: [sighting()] });
      write({ cells: [], integrations: [sighting({ lastSeen: NOON + DAY })] });
      expect(integrations()[0]?.lastLegacySeen).toBeNull();
    });

    test('keep the old clientInfo when a later sighting has none, and take a newer one', () => {
      write({ cells: [], integrations: [sighting({ clientInfo: { name: 'old-cli', version: '1' } })] });
      write({ cells: [], integrations: [sighting({ clientInfo: undefined })] });
      expect(integrations().map((i) => [i.clientInfoName, i.clientInfoVersion])).toEqual([['old-cli', '1']]);
      write({ cells: [], integrations: [sighting({ clientInfo: { name: 'new-cli', version: '2' } })] });
      expect(integrations().map((i) => [i.clientInfoName, i.clientInfoVersion])).toEqual([['new-cli', '2']]);
    });

    test('keep one row per key', () => {
      write({ cells: [], integrations: [sighting({ key: 'tok_a' }), sighting({ key: 'tok_b', source: 'anonymous' })] });
      write({ cells: [], integrations: [sighting({ key: 'tok_a' })] });
      expect(integrations().map((i) => [i.key, i.source])).toEqual([
        ['tok_a', 'bearer-fingerprint'],
        ['tok_b', 'anonymous'],
      ]);
    });
  });

  describe('node heartbeats', () => {
    const STARTED = NOON - HOUR;
    const beat = (overrides: Partial<NodeHeartbeat> = {}): NodeHeartbeat => ({ node: 'node-1', kind: 'serve', at: NOON, policyVersion: 2, startedAt: STARTED, ...overrides });
    const nodes = () => db.store.db.select().from(sidecarNodesTable).orderBy(asc(sidecarNodesTable.node)).all();

    test('a flush records its node: first seen, last flush, policy version and start time', () => {
      write({ cells: [trafficCell()], integrations: [] }, beat());
      expect(nodes()).toEqual([{ node: 'node-1', kind: 'serve', firstSeen: NOON, lastFlushAt: NOON, policyVersion: 2, startedAt: STARTED }]);
    });

    test('a later flush moves the last flush, the version and the start time, and keeps first seen', () => {
      write({ cells: [], integrations: [] }, beat());
      write({ cells: [], integrations: [] }, beat({ at: NOON + MINUTE, policyVersion: 3, startedAt: NOON + 30_000 }));
      write({ cells: [], integrations: [] }, beat({ node: 'node-2', kind: 'wrap', at: NOON + 2 * MINUTE }));
      expect(nodes()).toEqual([
        { node: 'node-1', kind: 'serve', firstSeen: NOON, lastFlushAt: NOON + MINUTE, policyVersion: 3, startedAt: NOON + 30_000 },
        { node: 'node-2', kind: 'wrap', firstSeen: NOON + 2 * MINUTE, lastFlushAt: NOON + 2 * MINUTE, policyVersion: 2, startedAt: STARTED },
      ]);
    });

    test('a flush without a heartbeat (a spool replayed) leaves the nodes alone', () => {
      write({ cells: [trafficCell()], integrations: [] });
      expect(nodes()).toEqual([]);
      expect(rows(trafficMinuteTable)).toHaveLength(1);
    });

    test('is written in the flush transaction: a failed flush writes no heartbeat', () => {
      write({ cells: [], integrations: [] }, beat());
      const bad = { ...trafficCell({ method: 'broken' }), era: null } as unknown as TallyCell;
      expect(() => write({ cells: [trafficCell()], integrations: [] }, beat({ at: NOON + MINUTE, policyVersion: 3 }))).not.toThrow();
      expect(() => write({ cells: [bad], integrations: [] }, beat({ at: NOON + 2 * MINUTE, policyVersion: 4 }))).toThrow();
      expect(nodes()).toEqual([expect.objectContaining({ lastFlushAt: NOON + MINUTE, policyVersion: 3 })]);
    });

    test('a bad heartbeat fails the whole flush: its counts are not written either', () => {
      const bad = { ...beat(), kind: null } as unknown as NodeHeartbeat;
      expect(() => write({ cells: [trafficCell()], integrations: [sighting()] }, bad)).toThrow();
      expect(rows(trafficMinuteTable)).toEqual([]);
      expect(integrations()).toEqual([]);
    });

    test('through the flusher: empty flushes write the heartbeat at most every 15 s, flushes with counts every time', async () => {
      let now = NOON;
      const tally = new Tally({ node: 'node-1', now: () => now });
      let policyVersion = 2;
      const writes: number[] = [];
      const flusher = new Flusher({
        tally,
        node: 'node-1',
        stream: 'stream-1',
        now: () => now,
        intervalMs: 1_000,
        sink: { write: (batches, at, heartbeat) => (writes.push(now), db.backend.writeTally(batches, at, heartbeat)) },
        heartbeat: (at) => beat({ at, policyVersion }),
      });
      const lastFlushAt = () => nodes()[0]?.lastFlushAt;
      for (let second = 0; second <= 31; second += 1) {
        now = NOON + second * 1_000;
        expect(await flusher.flushNow()).toBe(true);
      }
      expect(writes).toEqual([NOON, NOON + IDLE_HEARTBEAT_EVERY_MS, NOON + 2 * IDLE_HEARTBEAT_EVERY_MS]);
      expect(lastFlushAt()).toBe(NOON + 30_000);

      now += 1_000;
      tally.add({ labels: { era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28', method: 'tools/call', kind: 'request', outcome: 'served', integration: 'tok_a' }, integrationSource: 'bearer-fingerprint', clientInfo: undefined, claimMismatch: false });
      await flusher.flushNow();
      expect(lastFlushAt()).toBe(now);

      now += 1_000;
      policyVersion = 3;
      await flusher.flushNow();
      expect(nodes()[0]).toMatchObject({ lastFlushAt: now, policyVersion: 3 });
      expect(writes).toHaveLength(5);
    });

    test('through the flusher: a failed heartbeat-only flush is retried at the next flush, not 15 s later', async () => {
      let now = NOON;
      let down = true;
      const flusher = new Flusher({
        tally: new Tally({ node: 'node-1', now: () => now }),
        node: 'node-1',
        stream: 'stream-1',
        now: () => now,
        intervalMs: 1_000,
        sink: {
          write: async (batches, at, heartbeat) => {
            if (down) throw new Error('database is locked');
            return db.backend.writeTally(batches, at, heartbeat);
          },
        },
        heartbeat: (at) => beat({ at }),
      });
      expect(await flusher.flushNow()).toBe(false);
      expect(nodes()).toEqual([]);
      now += 1_000;
      down = false;
      expect(await flusher.flushNow()).toBe(true);
      expect(nodes()).toEqual([expect.objectContaining({ lastFlushAt: NOON + 1_000 })]);
    });
  });
});
