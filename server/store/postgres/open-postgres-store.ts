import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { redactStoreLocation } from '../../lib/redact-store-location.js';
import { findMigrationsFolder } from '../find-migrations-folder.js';
import type { Store } from '../store.js';
import { createPostgresStore } from './create-postgres-store.js';
import * as schema from './schema/index.js';

/** A fleet's sidecars share the server: each keeps a few connections, not one per request. */
const POOL_MAX = 4;
/** A server that does not answer fails the flush soon; the flusher keeps the batch and retries. */
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 15_000;
/** Waiting on another node's migration is start-up, not traffic: it may take longer. */
const MIGRATION_STATEMENT_TIMEOUT_MS = 120_000;
/** The advisory lock every node takes to migrate: one migrates, the others then find the work done. */
const MIGRATION_LOCK_KEY = 0x6d63_7073_756e; // "mcpsun"

export interface PostgresStoreOptions {
  /** Told about a pooled connection the server dropped while idle; the pool replaces it on next use. */
  onIdleError?: (error: Error) => void;
}

async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`set statement_timeout = ${MIGRATION_STATEMENT_TIMEOUT_MS}`);
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder: findMigrationsFolder('postgres') });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
    await client.query(`set statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    client.release();
  } catch (error) {
    // A session that failed half-way may still hold the lock or a bad setting: close it, not reuse it.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/**
 * Opens a Postgres store shared by a fleet: a small pool, and the migrations applied under an
 * advisory lock, so several sidecars starting at once on an empty database migrate it once.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_MAX,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
  });
  // An idle client losing its server emits here; unheard, it would crash the process that proxies traffic.
  pool.on('error', (error) => options.onIdleError?.(error));
  try {
    await migrateUnderLock(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return createPostgresStore(drizzle(pool, { schema }), { location: redactStoreLocation(url), close: () => pool.end(), pool });
}
