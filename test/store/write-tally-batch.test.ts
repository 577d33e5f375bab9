import { asc } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { integrationsTable, trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from '../../server/store/schema/index.js';
import { createTallyWriter } from '../../server/store/write-tally-batch.js';
import type { IntegrationSighting, TallyCell } from '../../server/tally/tally-cell.js';
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
  let write: (batch: { cells: TallyCell[]; integrations: IntegrationSighting[] }) => void;

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
});
