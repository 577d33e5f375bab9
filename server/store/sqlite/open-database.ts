import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { findMigrationsFolder } from '../find-migrations-folder.js';
import * as schema from './schema/index.js';

export type Db = BetterSQLite3Database<typeof schema>;

export interface SqliteDatabase {
  db: Db;
  sqlite: Database.Database;
  path: string;
  close(): void;
}

export interface OpenDatabaseOptions {
  /** Apply pending migrations (the default). */
  migrate?: boolean;
  readonly?: boolean;
}

/** How long opening waits on another process that holds the database (migrating it, say). */
const OPEN_BUSY_TIMEOUT_MS = 10_000;
/** Migration attempts: one that lost a race to another process finds the work done on the next. */
const MIGRATE_ATTEMPTS = 3;

/**
 * Applies pending migrations, safely when several processes open one new database at once. The
 * migrator reads what is applied before it takes the write lock, so a process that read "nothing"
 * while another was migrating fails on a table that now exists; it then reads again, and finds
 * every migration applied.
 */
function migrateSafely(db: Db): void {
  for (let attempt = 1; ; attempt += 1) {
    try {
      migrate(db, { migrationsFolder: findMigrationsFolder('sqlite') });
      return;
    } catch (error) {
      if (attempt >= MIGRATE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Opens the SQLite database in WAL mode with migrations applied. While opening, a database another
 * process holds is waited for (up to 10 s: this is start-up, not traffic); then `busy_timeout` is
 * zero: a locked database must fail a flush at once rather than stall the event loop that proxies
 * traffic.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  const absolute = path === ':memory:' ? path : resolve(path);
  if (absolute !== ':memory:' && !options.readonly) mkdirSync(dirname(absolute), { recursive: true });
  const sqlite = new Database(absolute, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    sqlite.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    if (!options.readonly) {
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
    }
    const db = drizzle(sqlite, { schema });
    if (options.migrate !== false && !options.readonly) migrateSafely(db);
    sqlite.pragma('busy_timeout = 0');
    return { db, sqlite, path: absolute, close: () => sqlite.close() };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}
