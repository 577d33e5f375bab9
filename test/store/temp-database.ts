import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../../server/store/sqlite/create-sqlite-store.js';
import { openDatabase, type SqliteDatabase } from '../../server/store/sqlite/open-database.js';
import type { Store } from '../../server/store/store.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';

/**
 * A real SQLite file in a fresh temporary folder, with the real migrations applied: `store` is the
 * SQLite connection (for seeding and raw reads), `backend` the async Store over that same connection.
 */
export interface TempDatabase {
  folder: string;
  path: string;
  store: SqliteDatabase;
  backend: Store;
  reopen(): SqliteDatabase;
  dispose(): void;
}

export function openTempDatabase(): TempDatabase {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-store-'));
  const path = join(folder, 'sunset.db');
  const store = openDatabase(path);
  const temp: TempDatabase = {
    folder,
    path,
    store,
    backend: createSqliteStore(store),
    reopen() {
      temp.store.close();
      temp.store = openDatabase(path);
      temp.backend = createSqliteStore(temp.store);
      return temp.store;
    },
    dispose() {
      temp.store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return temp;
}

/** A cell of legacy session traffic; override what a test is about. */
export function trafficCell(overrides: Partial<TallyCell> = {}): TallyCell {
  return {
    minute: Date.UTC(2026, 10, 30, 12, 0),
    node: 'node-1',
    era: 'legacy',
    transport: 'streamable-http',
    reason: 'session-header',
    version: '2025-06-18',
    method: 'tools/call',
    kind: 'request',
    outcome: 'served',
    integration: 'tok_a',
    count: 1,
    mismatchCount: 0,
    ...overrides,
  };
}
