import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { openPostgresStore } from '../../../server/store/postgres/open-postgres-store.js';
import type { Store } from '../../../server/store/store.js';
import { createTestDatabase, type TestDatabase } from '../../support/create-test-database.js';

describe('openPostgresStore', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function database(): Promise<TestDatabase> {
    const db = await createTestDatabase();
    cleanup.push(() => db.drop());
    return db;
  }

  async function open(url: string): Promise<Store> {
    const store = await openPostgresStore(url);
    cleanup.push(() => store.close());
    return store;
  }

  async function appliedMigrations(url: string): Promise<number> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const result = await client.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
      return Number(result.rows[0]!.n);
    } finally {
      await client.end();
    }
  }

  test('migrates an empty database and answers from it', async () => {
    const db = await database();
    const store = await open(db.url);
    expect(store.dialect).toBe('postgres');
    expect(await store.listPlans()).toEqual([]);
    expect(await store.getPolicyVersion()).toBe(0);
    expect(await appliedMigrations(db.url)).toBeGreaterThan(0);
  });

  test('three stores opening one empty database at once migrate it once', async () => {
    const db = await database();
    const stores = await Promise.all([open(db.url), open(db.url), open(db.url)]);
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../../migrations/postgres/', import.meta.url)).filter((name) => name.endsWith('.sql'));
    expect(await appliedMigrations(db.url)).toBe(files.length);
    for (const store of stores) expect(await store.listIntegrations()).toEqual([]);
  });

  test('reopening a migrated database applies nothing again', async () => {
    const db = await database();
    await (await open(db.url)).close();
    cleanup.pop();
    const before = await appliedMigrations(db.url);
    await open(db.url);
    expect(await appliedMigrations(db.url)).toBe(before);
  });

  test('names its location with the password masked', async () => {
    const db = await database();
    const store = await open(db.url);
    const password = decodeURIComponent(new URL(db.url).password);
    expect(password.length).toBeGreaterThan(0);
    expect(store.location).not.toContain(password);
    expect(store.location).toContain('***');
    expect(store.location).toContain(new URL(db.url).pathname);
  });

  test('a server closing an idle connection does not crash the process, and the store answers after', async () => {
    const db = await database();
    const errors: Error[] = [];
    const store = await openPostgresStore(db.url, { onIdleError: (error) => errors.push(error) });
    cleanup.push(() => store.close());
    await store.listPlans();
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const name = new URL(db.url).pathname.slice(1);
    const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    expect(await store.listPlans()).toEqual([]);
  });

  test('a server that is not there fails the open, it does not hang', async () => {
    const url = new URL((await database()).url);
    url.port = '1';
    await expect(openPostgresStore(url.toString())).rejects.toThrow();
  });
});
