import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { openTempDatabase, trafficCell } from './temp-database.js';

const DAY = Date.UTC(2026, 10, 30);
const NOON = DAY + 12 * 3_600_000;

/** A day of traffic as a database from before the work basis held it. */
const CELLS: TallyCell[] = [
  trafficCell({ integration: 'tok_worker', method: 'initialize', reason: 'initialize', count: 2 }),
  trafficCell({ integration: 'tok_worker', method: 'tools/call', count: 7 }),
  trafficCell({ integration: 'tok_worker', method: 'ping', count: 3 }),
  trafficCell({ integration: 'tok_worker', method: 'notifications/initialized', kind: 'notification', outcome: 'accepted', count: 2 }),
  trafficCell({ integration: 'tok_remote', method: 'GET', kind: 'stream-open', reason: 'get-stream', version: '2025-03-26', outcome: 'client-error' }),
  trafficCell({ integration: 'tok_remote', era: 'modern', reason: 'modern-meta', version: '2026-07-28', method: 'server/discover' }),
  trafficCell({ integration: 'tok_remote', era: 'modern', reason: 'modern-meta', version: '2026-07-28', method: 'tools/call', count: 5 }),
  trafficCell({ integration: 'tok_greeter', method: 'initialize', reason: 'initialize' }),
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The migrations folder as it was before this migration: only the initial schema. */
function initialMigrationsOnly(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-migrations-'));
  dirs.push(dir);
  cpSync(join(import.meta.dirname, '../../migrations/sqlite'), dir, { recursive: true });
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
  return dir;
}

describe('migration 0001: the share by request class', () => {
  test('rebuilds share_day and legacy_caller_day from traffic_day as the writer now files them, and clears last-legacy-seen of callers with no legacy work; plans keep the work basis', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-store-'));
    dirs.push(dir);
    const path = join(dir, 'old.db');
    const old = openDatabase(path, { migrate: false });
    migrate(old.db, { migrationsFolder: initialMigrationsOnly() });
    const insertTraffic = old.sqlite.prepare(
      'insert into traffic_day (bucket_start, node, era, transport, reason, version, method, kind, outcome, integration, count, mismatch_count) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)',
    );
    for (const c of CELLS) insertTraffic.run(DAY, c.node, c.era, c.transport, c.reason, c.version, c.method, c.kind, c.outcome, c.integration, c.count);
    // What the old writer left: every request in share_day, every served legacy request in legacy_caller_day.
    old.sqlite.exec(`insert into share_day select bucket_start, era, transport, version, outcome, method = 'server/discover', sum(count) from traffic_day where kind = 'request' group by 1, 2, 3, 4, 5, 6`);
    old.sqlite.exec(`insert into legacy_caller_day select bucket_start, integration, sum(count) from traffic_day where kind = 'request' and era = 'legacy' and outcome = 'served' group by 1, 2`);
    const insertIntegration = old.sqlite.prepare('insert into integrations (key, source, first_seen, last_seen, last_legacy_seen) values (?, ?, ?, ?, ?)');
    insertIntegration.run('tok_worker', 'bearer-fingerprint', NOON, NOON, NOON);
    insertIntegration.run('tok_remote', 'bearer-fingerprint', NOON, NOON, NOON);
    insertIntegration.run('tok_greeter', 'bearer-fingerprint', NOON, NOON, NOON);
    old.sqlite.prepare("insert into plans (name, scope_kind, scope_value, announce_date, retire_date, created_at, updated_at) values ('p', 'era', 'legacy', '2026-09-01', '2027-03-01', ?, ?)").run(NOON, NOON);
    old.close();

    const migrated = openDatabase(path);
    const fresh = openTempDatabase();
    try {
      createTallyWriter(fresh.store.db)({ cells: CELLS, integrations: [] });
      const dump = (sqlite: typeof migrated.sqlite, sql: string) => sqlite.prepare(sql).all();
      for (const query of ['select * from share_day order by 1, 2, 3, 4, 5, 6', 'select * from legacy_caller_day order by 1, 2']) {
        expect(dump(migrated.sqlite, query)).toEqual(dump(fresh.store.sqlite, query));
      }
      expect(dump(migrated.sqlite, 'select key, last_legacy_seen as lastLegacySeen from integrations order by key')).toEqual([
        { key: 'tok_greeter', lastLegacySeen: null },
        { key: 'tok_remote', lastLegacySeen: null },
        { key: 'tok_worker', lastLegacySeen: NOON },
      ]);
      expect(dump(migrated.sqlite, 'select basis from plans')).toEqual([{ basis: 'work-requests' }]);
    } finally {
      migrated.close();
      fresh.dispose();
    }
  });
});
