import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { openPostgresStore } from '../../../server/store/postgres/open-postgres-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/create-test-database.js';
import { trafficCell } from '../temp-database.js';

const DAY_MS = 86_400_000;
const DAY = Date.UTC(2026, 10, 30);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The Postgres migrations folder as it was before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-pg-migrations-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(import.meta.dirname, '../../../migrations/postgres'), dir, { recursive: true });
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(upTo).toBeGreaterThan(0);
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  return dir;
}

describe('Postgres migration 0001: legacy callers per node', () => {
  test('rebuilds legacy_caller_day from traffic_day with the node, served legacy work only; a day\'s callers are counted once', async () => {
    const db: TestDatabase = await createTestDatabase();
    cleanup.push(() => db.drop());
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    cleanup.push(() => client.end());
    await migrate(drizzle(client), { migrationsFolder: migrationsBefore('0001_legacy_callers_per_node') });

    const cells = [
      trafficCell({ minute: DAY, node: 'edge-a', integration: 'tok_a', count: 7 }),
      trafficCell({ minute: DAY, node: 'edge-b', integration: 'tok_a', count: 5 }),
      trafficCell({ minute: DAY, node: 'edge-a', integration: 'tok_b', method: 'initialize', reason: 'initialize', count: 2 }),
      trafficCell({ minute: DAY, node: 'edge-a', integration: 'tok_c', outcome: 'blocked', count: 4 }),
      trafficCell({ minute: DAY + DAY_MS, node: 'edge-b', integration: 'tok_c', count: 3 }),
      trafficCell({ minute: DAY + DAY_MS, node: 'edge-b', integration: 'tok_d', era: 'modern', reason: 'modern-meta', version: '2026-07-28', count: 9 }),
    ];
    for (const c of cells) {
      await client.query(
        'insert into traffic_day (bucket_start, node, era, transport, reason, version, method, kind, outcome, integration, count, mismatch_count, would_block_count) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, 0)',
        [c.minute, c.node, c.era, c.transport, c.reason, c.version, c.method, c.kind, c.outcome, c.integration, c.count],
      );
    }
    // What the writer before 0001 left: one row per caller and day, over every node.
    await client.query(`insert into legacy_caller_day (day, integration, count) values ($1, 'tok_a', 12), ($2, 'tok_c', 3)`, [DAY, DAY + DAY_MS]);

    const store = await openPostgresStore(db.url);
    cleanup.push(() => store.close());
    const rows = await client.query('select day::float8 as day, node, integration, count::float8 as count from legacy_caller_day order by day, node, integration');
    expect(rows.rows).toEqual([
      { day: DAY, node: 'edge-a', integration: 'tok_a', count: 7 },
      { day: DAY, node: 'edge-b', integration: 'tok_a', count: 5 },
      { day: DAY + DAY_MS, node: 'edge-b', integration: 'tok_c', count: 3 },
    ]);
    expect(await store.listLegacyCallerCounts(DAY, DAY + 2 * DAY_MS)).toEqual([
      { day: DAY, count: 1 },
      { day: DAY + DAY_MS, count: 1 },
    ]);
  });
});
