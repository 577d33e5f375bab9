import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { listCallerRefusals } from '../../server/store/sqlite/list-caller-refusals.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import { openTempDatabase, trafficCell, type TempDatabase } from './temp-database.js';

const HOUR_MS = 3_600_000;
const HOUR = Date.UTC(2027, 0, 15, 11);

describe('listCallerRefusals', () => {
  let temp: TempDatabase;
  beforeEach(() => {
    temp = openTempDatabase();
  });
  afterEach(() => temp.dispose());

  test('counts blocked requests per caller in the hour and in the 24 hours before it, and nothing else', () => {
    const blocked = (minute: number, integration: string, count: number) => trafficCell({ minute, integration, outcome: 'blocked', count });
    createTallyWriter(temp.store.db)({
      cells: [
        blocked(HOUR + 5 * 60_000, 'tok_a', 30),
        blocked(HOUR + 59 * 60_000, 'tok_a', 2),
        blocked(HOUR - 60_000, 'tok_a', 4),
        blocked(HOUR - 24 * HOUR_MS, 'tok_a', 6),
        // Outside: the hour in progress after it, and the 25th hour before it.
        blocked(HOUR + HOUR_MS, 'tok_a', 1000),
        blocked(HOUR - 25 * HOUR_MS, 'tok_a', 1000),
        // Not a refused request: served traffic, and a refused notification.
        trafficCell({ minute: HOUR, integration: 'tok_a', count: 1000 }),
        trafficCell({ minute: HOUR, integration: 'tok_a', outcome: 'blocked', kind: 'notification', method: 'notifications/initialized', count: 1000 }),
        blocked(HOUR - 3 * HOUR_MS, 'tok_b', 7),
        trafficCell({ minute: HOUR, integration: 'tok_c', count: 5 }),
      ],
      integrations: [{ key: 'tok_a', source: 'bearer-fingerprint', firstSeen: HOUR, lastSeen: HOUR, lastLegacySeen: undefined, clientInfo: undefined }],
    });
    temp.store.sqlite.prepare(`update integrations set display_name = 'Billing bot' where key = 'tok_a'`).run();
    const rows = listCallerRefusals(temp.store.db, HOUR).sort((a, b) => a.integration.localeCompare(b.integration));
    expect(rows).toEqual([
      { integration: 'tok_a', displayName: 'Billing bot', inHour: 32, dayBefore: 10 },
      { integration: 'tok_b', displayName: null, inHour: 0, dayBefore: 7 },
    ]);
  });
});
