import { afterEach, describe, expect, test } from 'vitest';
import { getInstallSecret } from '../../server/store/sqlite/get-install-secret.js';
import { openTempDatabase, type TempDatabase } from './temp-database.js';

describe('getInstallSecret', () => {
  const opened: TempDatabase[] = [];
  const open = () => {
    const db = openTempDatabase();
    opened.push(db);
    return db;
  };
  afterEach(() => {
    for (const db of opened.splice(0)) db.dispose();
  });

  test('creates a long random secret on first use', () => {
    expect(getInstallSecret(open().store.db)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('answers the same secret every time', () => {
    const db = open();
    expect(getInstallSecret(db.store.db)).toBe(getInstallSecret(db.store.db));
  });

  test('answers the same secret after the database is closed and reopened', () => {
    const db = open();
    const first = getInstallSecret(db.store.db);
    expect(getInstallSecret(db.reopen().db)).toBe(first);
  });

  test('differs between installs', () => {
    expect(getInstallSecret(open().store.db)).not.toBe(getInstallSecret(open().store.db));
  });
});
