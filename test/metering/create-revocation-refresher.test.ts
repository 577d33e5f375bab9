import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createLogger } from '../../server/lib/create-logger.js';
import { createRevocationRefresher, type RevocationRefresher } from '../../server/metering/create-revocation-refresher.js';
import { createSqliteStore } from '../../server/store/sqlite/create-sqlite-store.js';
import { openDatabase, type SqliteDatabase } from '../../server/store/sqlite/open-database.js';
import type { Store } from '../../server/store/store.js';
import { openTempDatabase, type TempDatabase } from '../store/temp-database.js';

const START = Date.UTC(2026, 11, 2, 12);
const HOUR = 3_600_000;
const REFRESH_MS = 5_000;

describe('createRevocationRefresher', () => {
  let db: TempDatabase;
  let other: SqliteDatabase;
  /** Another node's handle on the same database file: where revocations are made. */
  let elsewhere: Store;
  let clock: number;
  let logs: { level: number; msg: string; added?: number; err?: { message: string } }[];
  let refresher: RevocationRefresher;

  beforeEach(() => {
    vi.useFakeTimers();
    db = openTempDatabase();
    other = openDatabase(db.path);
    elsewhere = createSqliteStore(other);
    clock = START;
    logs = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    refresher = createRevocationRefresher({ store: db.backend, now: () => clock, logger, refreshEveryMs: REFRESH_MS });
  });
  afterEach(() => {
    refresher.stop();
    vi.useRealTimers();
    other.close();
    db.dispose();
  });

  const revoke = (sessionId: string, expiresAt = clock + HOUR) => elsewhere.upsertBridgeRevocation({ sessionId, expiresAt, reason: null }, clock);
  const advance = async (ms: number) => {
    clock += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  test('the revocations in the store at start are in force before start answers', async () => {
    await revoke('s1');
    await refresher.start();
    expect(refresher.isRevoked('s1')).toBe(true);
    expect(refresher.health()).toEqual({ revoked: 1, refreshedAt: new Date(START).toISOString(), lastError: null });
  });

  test('a revocation made by another node is read at the next interval, not before', async () => {
    await refresher.start();
    await revoke('s1');
    await advance(REFRESH_MS - 1);
    expect(refresher.isRevoked('s1')).toBe(false);
    await advance(1);
    expect(refresher.isRevoked('s1')).toBe(true);
    expect(logs.some((l) => l.msg === 'bridge sessions revoked' && l.added === 1)).toBe(true);
  });

  test('isRevoked works passed on alone, as the bridge takes it', async () => {
    await revoke('s1');
    await refresher.start();
    const { isRevoked } = refresher;
    expect(['s1', 's2'].map(isRevoked)).toEqual([true, false]);
  });

  test('a revocation whose token has expired is dropped from the set at the next read', async () => {
    await revoke('short', START + REFRESH_MS);
    await revoke('long', START + HOUR);
    await refresher.start();
    expect(refresher.isRevoked('short')).toBe(true);
    await advance(REFRESH_MS);
    expect(refresher.isRevoked('short')).toBe(false);
    expect(refresher.isRevoked('long')).toBe(true);
  });

  test('a read that fails keeps the set in force, logs, and reports why until a read succeeds', async () => {
    await revoke('s1');
    await refresher.start();
    db.store.sqlite.exec('ALTER TABLE bridge_revocations RENAME TO bridge_revocations_away');
    await advance(REFRESH_MS);
    expect(refresher.isRevoked('s1')).toBe(true);
    expect(refresher.health()).toMatchObject({ revoked: 1, refreshedAt: new Date(START).toISOString(), lastError: expect.stringMatching(/bridge_revocations/) });
    expect(logs.some((l) => l.level === 40 && /could not be read/.test(l.msg))).toBe(true);
    db.store.sqlite.exec('ALTER TABLE bridge_revocations_away RENAME TO bridge_revocations');
    await revoke('s2');
    await refresher.refresh();
    expect(refresher.isRevoked('s2')).toBe(true);
    expect(refresher.health()).toEqual({ revoked: 2, refreshedAt: new Date(clock).toISOString(), lastError: null });
  });

  test('stopped, it reads no more', async () => {
    await refresher.start();
    refresher.stop();
    await revoke('s1');
    await advance(10 * REFRESH_MS);
    expect(refresher.isRevoked('s1')).toBe(false);
  });
});

describe('createRevocationRefresher without a store', () => {
  test('revokes nothing and starts no reads', async () => {
    const refresher = createRevocationRefresher({ store: undefined, now: () => START, logger: createLogger('silent'), refreshEveryMs: REFRESH_MS });
    await refresher.start();
    await refresher.refresh();
    expect(refresher.isRevoked('s1')).toBe(false);
    expect(refresher.health()).toEqual({ revoked: 0, refreshedAt: null, lastError: null });
    refresher.stop();
  });
});

describe('whether the revoked set is known', () => {
  const failing = { listBridgeRevocations: async () => Promise.reject(new Error('connection refused')) } as unknown as Store;
  const answering = (rows: { sessionId: string }[]) => ({ listBridgeRevocations: async () => rows }) as unknown as Store;

  test('not before a first read succeeds: a start during a store outage knows nothing', async () => {
    const refresher = createRevocationRefresher({ store: failing, storeExpected: true, now: () => START, logger: createLogger('silent'), refreshEveryMs: REFRESH_MS });
    await refresher.start();
    expect(refresher.known()).toBe(false);
    expect(refresher.health().lastError).toBe('connection refused');
    refresher.stop();
  });

  test('a read that fails keeps the last set known until maxStaleMs, then not', async () => {
    let clock = START;
    let store: Store = answering([{ sessionId: 's1' }]);
    const refreshed: number[] = [];
    const refresher = createRevocationRefresher({ store: { listBridgeRevocations: (at: number) => store.listBridgeRevocations(at) } as Store, storeExpected: true, now: () => clock, logger: createLogger('silent'), refreshEveryMs: REFRESH_MS, maxStaleMs: 60_000, onRefreshed: () => refreshed.push(clock) });
    await refresher.start();
    expect(refresher.known()).toBe(true);
    store = failing;
    clock += 30_000;
    await refresher.refresh();
    expect([refresher.known(), refresher.isRevoked('s1')]).toEqual([true, true]);
    clock += 30_001;
    expect(refresher.known()).toBe(false);
    // Every read, good or not, is followed by a check of what is open.
    expect(refreshed).toEqual([START, START + 30_000]);
    refresher.stop();
  });

  test('without a store: known where none is expected, not known where a bridge needs one', () => {
    expect(createRevocationRefresher({ store: undefined, now: () => START, logger: createLogger('silent'), refreshEveryMs: REFRESH_MS }).known()).toBe(true);
    expect(createRevocationRefresher({ store: undefined, storeExpected: true, now: () => START, logger: createLogger('silent'), refreshEveryMs: REFRESH_MS }).known()).toBe(false);
  });
});
