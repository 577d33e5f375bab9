import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_DEMO_DAY } from '../../server/demo/demo-traffic.js';
import { measureDemoHistoryDay } from '../../server/demo/measure-demo-history-day.js';
import { seedDemoHistory } from '../../server/demo/seed-demo-history.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 15, 30);

describe('measureDemoHistoryDay', () => {
  let temp: TempDatabase;
  beforeEach(() => {
    temp = openTempDatabase();
  });
  afterEach(() => temp.dispose());

  test('finds nothing before the history is seeded', () => {
    expect(measureDemoHistoryDay(temp.store.db)).toBeUndefined();
  });

  test("averages the served work of the week before the seeding day, and its legacy share", () => {
    seedDemoHistory(temp.store.db, NOW);
    const day = measureDemoHistoryDay(temp.store.db)!;

    const today = Math.floor(NOW / DAY_MS) * DAY_MS;
    const rows = temp.store.sqlite
      .prepare(
        `select era, sum(count) as n from traffic_minute
         where node = 'demo-history' and kind = 'request' and outcome = 'served'
           and method not in ('initialize', 'server/discover', 'ping', 'logging/setLevel')
           and bucket_start >= ? and bucket_start < ? group by era`,
      )
      .all(today - 7 * DAY_MS, today) as { era: string; n: number }[];
    const work = (era: string) => rows.find((r) => r.era === era)?.n ?? 0;
    expect(day.workRequests).toBeCloseTo((work('legacy') + work('modern')) / 7, 6);
    expect(day.legacyShare).toBeCloseTo(work('legacy') / (work('legacy') + work('modern')), 6);
    // The seeded curve is flat near 8% over its last weeks.
    expect(day.legacyShare).toBeGreaterThan(0.06);
    expect(day.legacyShare).toBeLessThan(0.1);
  });

  test('the default day for a demo without history is about what a fresh seed measures', () => {
    seedDemoHistory(temp.store.db, NOW);
    const day = measureDemoHistoryDay(temp.store.db)!;
    expect(Math.abs(DEFAULT_DEMO_DAY.workRequests - day.workRequests) / day.workRequests).toBeLessThan(0.1);
    expect(Math.abs(DEFAULT_DEMO_DAY.legacyShare - day.legacyShare) / day.legacyShare).toBeLessThan(0.1);
  });
});
