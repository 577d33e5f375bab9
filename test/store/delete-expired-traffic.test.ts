import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { deleteExpiredTraffic } from '../../server/store/sqlite/delete-expired-traffic.js';
import { trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from '../../server/store/sqlite/schema/index.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

const NOW = Date.UTC(2026, 10, 30, 12, 0);
const DAY = 86_400_000;
const RETENTION = { minuteDays: 14, hourDays: 400 };

describe('deleteExpiredTraffic', () => {
  let db: TempDatabase;

  beforeEach(() => {
    db = openTempDatabase();
  });
  afterEach(() => db.dispose());

  function insert(table: TrafficTable, ...bucketStarts: number[]) {
    for (const [i, bucketStart] of bucketStarts.entries()) {
      const { minute: _minute, ...cell } = trafficCell({ method: `m${i}` });
      db.store.db.insert(table).values({ ...cell, bucketStart }).run();
    }
  }

  function starts(table: TrafficTable): number[] {
    return db.store.db.select({ at: table.bucketStart }).from(table).all().map((r) => r.at).sort((a, b) => a - b);
  }

  test('deletes minute rows older than 14 days and keeps the boundary and younger', () => {
    insert(trafficMinuteTable, NOW - 30 * DAY, NOW - 14 * DAY - 1, NOW - 14 * DAY, NOW - DAY, NOW);
    expect(deleteExpiredTraffic(db.store.db, NOW, RETENTION)).toBe(2);
    expect(starts(trafficMinuteTable)).toEqual([NOW - 14 * DAY, NOW - DAY, NOW]);
  });

  test('deletes hour rows older than 400 days and keeps the boundary and younger', () => {
    insert(trafficHourTable, NOW - 800 * DAY, NOW - 400 * DAY - 1, NOW - 400 * DAY, NOW - 30 * DAY);
    expect(deleteExpiredTraffic(db.store.db, NOW, RETENTION)).toBe(2);
    expect(starts(trafficHourTable)).toEqual([NOW - 400 * DAY, NOW - 30 * DAY]);
  });

  test('never deletes day rows, however old', () => {
    insert(trafficDayTable, 0, NOW - 5_000 * DAY, NOW - 401 * DAY, NOW);
    expect(deleteExpiredTraffic(db.store.db, NOW, RETENTION)).toBe(0);
    expect(starts(trafficDayTable)).toEqual([0, NOW - 5_000 * DAY, NOW - 401 * DAY, NOW]);
  });

  test('answers the number of rows deleted across tables and is idempotent', () => {
    insert(trafficMinuteTable, NOW - 15 * DAY);
    insert(trafficHourTable, NOW - 401 * DAY, NOW - 402 * DAY);
    insert(trafficDayTable, NOW - 1_000 * DAY);
    expect(deleteExpiredTraffic(db.store.db, NOW, RETENTION)).toBe(3);
    expect(deleteExpiredTraffic(db.store.db, NOW, RETENTION)).toBe(0);
  });
});
