import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, test } from 'vitest';
import { createSqliteStore } from '../../server/store/sqlite/create-sqlite-store.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { openTempDatabase, trafficCell } from './temp-database.js';

const DAY_MS = 86_400_000;
const DAY = Date.UTC(2026, 10, 30);

/** Two days of two nodes' traffic, as a database from before the share knew its node. */
const CELLS: TallyCell[] = [
  trafficCell({ minute: DAY, node: 'edge-a', method: 'initialize', reason: 'initialize', count: 2 }),
  trafficCell({ minute: DAY, node: 'edge-a', method: 'tools/call', count: 7 }),
  trafficCell({ minute: DAY, node: 'edge-b', method: 'tools/call', count: 5 }),
  trafficCell({ minute: DAY, node: 'edge-b', method: 'ping', count: 3 }),
  trafficCell({ minute: DAY, node: 'edge-a', method: 'notifications/initialized', kind: 'notification', outcome: 'accepted', count: 2 }),
  trafficCell({ minute: DAY, node: 'edge-b', era: 'modern', reason: 'modern-meta', version: '2026-07-28', method: 'server/discover' }),
  trafficCell({ minute: DAY, node: 'edge-b', era: 'modern', reason: 'modern-meta', version: '2026-07-28', method: 'tools/call', count: 11 }),
  trafficCell({ minute: DAY + DAY_MS, node: 'edge-a', method: 'tools/call', outcome: 'blocked', count: 4 }),
  trafficCell({ minute: DAY + DAY_MS, node: 'edge-b', era: 'modern', reason: 'modern-meta', version: '2026-07-28', method: 'resources/read', count: 6 }),
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-migrations-'));
  dirs.push(dir);
  return dir;
}

/** The migrations folder as it was before `tag`: the journal's entries up to it. */
function migrationsBefore(tag: string): string {
  const dir = scratch();
  cpSync(join(import.meta.dirname, '../../migrations/sqlite'), dir, { recursive: true });
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(upTo).toBeGreaterThan(0);
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  return dir;
}

describe('migration 0005: the share by node, and the flush streams', () => {
  test('rebuilds share_day from traffic_day with each row\'s node, equal to what the writer files now; tally_streams starts empty', async () => {
    const path = join(scratch(), 'old.db');
    const old = openDatabase(path, { migrate: false });
    migrate(old.db, { migrationsFolder: migrationsBefore('0005_fleet_streams') });
    const insertTraffic = old.sqlite.prepare(
      'insert into traffic_day (bucket_start, node, era, transport, reason, version, method, kind, outcome, integration, count, mismatch_count) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)',
    );
    for (const c of CELLS) insertTraffic.run(c.minute, c.node, c.era, c.transport, c.reason, c.version, c.method, c.kind, c.outcome, c.integration, c.count);
    // What the writer of 0004 left: the share summed over every node.
    old.sqlite.exec(
      `insert into share_day select bucket_start, era, transport, version, outcome, case when method in ('initialize', 'server/discover') then 'negotiation' when method in ('ping', 'logging/setLevel') then 'plumbing' else 'work' end, sum(count) from traffic_day where kind = 'request' group by 1, 2, 3, 4, 5, 6`,
    );
    expect(old.sqlite.prepare('select count(*) as n from share_day').get()).toEqual({ n: 7 });
    old.close();

    const migrated = openDatabase(path);
    const fresh = openTempDatabase();
    try {
      createTallyWriter(fresh.store.db)({ cells: CELLS, integrations: [] });
      const query = 'select * from share_day order by day, node, era, transport, version, outcome, request_class';
      const rows = migrated.sqlite.prepare(query).all() as { node: string }[];
      expect(rows).toEqual(fresh.store.sqlite.prepare(query).all());
      expect(new Set(rows.map((row) => row.node))).toEqual(new Set(['edge-a', 'edge-b']));
      // One node's share is read on its own through the Store.
      const store = createSqliteStore(migrated);
      const edgeA = await store.listShareRows(DAY, DAY + 2 * DAY_MS, 'edge-a');
      expect(edgeA.reduce((sum, row) => sum + row.count, 0)).toBe(2 + 7 + 4);
      expect(edgeA.every((row) => row.node === 'edge-a')).toBe(true);
      expect((await store.listShareRows(DAY, DAY + 2 * DAY_MS)).reduce((sum, row) => sum + row.count, 0)).toBe(2 + 7 + 5 + 3 + 1 + 11 + 4 + 6);
      expect(migrated.sqlite.prepare('select count(*) as n from tally_streams').get()).toEqual({ n: 0 });
    } finally {
      migrated.close();
      fresh.dispose();
    }
  });
});

describe('migration 0006: legacy callers per node', () => {
  test('rebuilds legacy_caller_day from traffic_day with each row\'s node, equal to what the writer files now; a day\'s distinct callers stay counted once', async () => {
    // One caller on two nodes the same day: a row per node now, still one caller that day.
    const cells = [...CELLS, trafficCell({ minute: DAY, node: 'edge-b', method: 'tools/call', integration: 'tok_a', count: 1 }), trafficCell({ minute: DAY, node: 'edge-a', method: 'tools/call', integration: 'tok_b', count: 2 })];
    const path = join(scratch(), 'old.db');
    const old = openDatabase(path, { migrate: false });
    migrate(old.db, { migrationsFolder: migrationsBefore('0006_legacy_callers_per_node') });
    const insertTraffic = old.sqlite.prepare(
      'insert into traffic_day (bucket_start, node, era, transport, reason, version, method, kind, outcome, integration, count, mismatch_count) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) on conflict do update set count = count + excluded.count',
    );
    for (const c of cells) insertTraffic.run(c.minute, c.node, c.era, c.transport, c.reason, c.version, c.method, c.kind, c.outcome, c.integration, c.count);
    // What the writer of 0005 left: served legacy work per caller and day, over every node.
    old.sqlite.exec(
      `insert into legacy_caller_day select bucket_start, integration, sum(count) from traffic_day where kind = 'request' and method not in ('initialize', 'server/discover', 'ping', 'logging/setLevel') and (outcome = 'served-as-legacy' or (era = 'legacy' and outcome = 'served')) group by 1, 2`,
    );
    old.close();

    const migrated = openDatabase(path);
    const fresh = openTempDatabase();
    try {
      createTallyWriter(fresh.store.db)({ cells, integrations: [] });
      const query = 'select * from legacy_caller_day order by day, node, integration';
      const rows = migrated.sqlite.prepare(query).all() as { node: string; integration: string }[];
      expect(rows).toEqual(fresh.store.sqlite.prepare(query).all());
      expect(rows.filter((row) => row.integration === 'tok_a').map((row) => row.node).sort()).toEqual(['edge-a', 'edge-b']);
      const counts = await createSqliteStore(migrated).listLegacyCallerCounts(DAY, DAY + 2 * DAY_MS);
      expect(counts).toEqual([{ day: DAY, count: 2 }]);
    } finally {
      migrated.close();
      fresh.dispose();
    }
  });
});
