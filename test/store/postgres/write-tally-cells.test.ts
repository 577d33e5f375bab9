import { afterAll, describe, expect, test } from 'vitest';
import { openPostgresStore } from '../../../server/store/postgres/open-postgres-store.js';
import { createTestDatabase } from '../../support/create-test-database.js';
import { cell, MINUTE, NOON, sighting } from '../contract/backends.js';

describe('the Postgres tally writer', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  test('a NUL in a client-chosen label is stored as U+FFFD and folds with the same label written so, in one flush', async () => {
    const database = await createTestDatabase();
    drops.push(() => database.drop());
    const store = await openPostgresStore(database.url);
    try {
      const result = await store.writeTally(
        [
          {
            stream: 's1',
            node: 'node-1',
            seq: 1,
            batch: {
              cells: [cell({ method: 'a\u0000b', count: 2 }), cell({ method: 'a\uFFFDb', count: 3 })],
              integrations: [sighting({ key: 'k\u0000', clientInfo: { name: 'n\u0000', version: '1' } }), sighting({ key: 'k\uFFFD' })],
            },
          },
        ],
        NOON,
      );
      expect(result.written).toBe(1);
      const traffic = await store.listTraffic({ from: NOON, to: NOON + MINUTE, bucket: 'minute', groupBy: 'method', filters: {} });
      expect({ ...traffic.totals }).toEqual({ 'a\uFFFDb': 5 });
      expect((await store.listIntegrations()).map((i) => [i.key, i.clientInfoName])).toEqual([['k\uFFFD', 'n\uFFFD']]);
    } finally {
      await store.close();
    }
  });
});
