import type { Logger } from '../lib/create-logger.js';
import type { Store } from '../store/store.js';

export interface RevocationRefresherOptions {
  /** Without a store nothing is revoked: sessions are still checked for their key and expiry. */
  store: Store | undefined;
  now: () => number;
  logger: Logger;
  /** How often the revocations are read (`bridge.revocationRefreshMs`). */
  refreshEveryMs: number;
  /**
   * True where revocations are honoured (a bridge): without a store, or before the first read, or
   * once the last good read is older than `maxStaleMs`, the set is not known.
   */
  storeExpected?: boolean;
  /** How old the last good read may be while it is still taken as the set in force (`bridge.revocationMaxStaleMs`). */
  maxStaleMs?: number;
  /** Called after every read, good or not: what is open is checked again then. */
  onRefreshed?: () => void;
}

export interface RevocationHealth {
  /** Sessions revoked in the set in force. */
  revoked: number;
  refreshedAt: string | null;
  lastError: string | null;
}

export interface RevocationRefresher {
  /** Read per bridged request, so a plain set lookup; safe to pass on unbound. */
  isRevoked(sessionId: string): boolean;
  /**
   * False while the revoked set is not known here: never read (a start during a store outage must
   * not honour sessions revoked before it), or last read longer ago than `maxStaleMs`. Safe to pass on unbound.
   */
  known(): boolean;
  /** Reads the revocations now (after one was made through this process's API, say); never rejects. */
  refresh(): Promise<void>;
  health(): RevocationHealth;
  /** Starts the reads; answers when the first set is read (or failed to be). */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Keeps this node's copy of the revoked bridge sessions. The store is the only place a revocation is
 * written, so every node of a fleet refuses a session within one interval of its revocation anywhere.
 * A read that fails keeps the set in force: a store fault must not bring revoked sessions back. A
 * blip is ridden out on the last set read; a node that has not read the set (since its start, or
 * for `maxStaleMs`) reports it unknown, and the bridge then honours no session at all.
 */
export function createRevocationRefresher(options: RevocationRefresherOptions): RevocationRefresher {
  let revoked: ReadonlySet<string> = new Set();
  let refreshedAt: number | null = null;
  let lastError: string | null = null;
  let timer: NodeJS.Timeout | undefined;

  const read = async (store: Store) => {
    await readOnce(store);
    try {
      options.onRefreshed?.();
    } catch (error) {
      options.logger.warn({ err: error }, 'open bridge streams could not be checked against the revocations');
    }
  };
  const readOnce = async (store: Store) => {
    try {
      const rows = await store.listBridgeRevocations(options.now());
      const next = new Set(rows.map((row) => row.sessionId));
      const added = rows.filter((row) => !revoked.has(row.sessionId)).length;
      if (added > 0) options.logger.info({ added, revoked: next.size }, 'bridge sessions revoked');
      revoked = next;
      refreshedAt = options.now();
      lastError = null;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      options.logger.warn({ err: error }, 'bridge session revocations could not be read; the ones in force stay');
    }
  };

  // One read at a time: a slow store must not pile them up, and a refresh asked for while one runs
  // (a revocation just made) runs after it, so it reads the new row.
  let queue: Promise<void> = Promise.resolve();
  const refresh = (): Promise<void> => {
    const store = options.store;
    if (store === undefined) return Promise.resolve();
    queue = queue.then(() => read(store));
    return queue;
  };
  let ticking = false;
  const tick = async () => {
    // A tick while the previous one still waits on the store is skipped, not queued.
    if (ticking) return;
    ticking = true;
    try {
      await refresh();
    } finally {
      ticking = false;
    }
  };

  return {
    isRevoked: (sessionId) => revoked.has(sessionId),
    known: () => {
      if (options.store === undefined) return options.storeExpected !== true;
      if (refreshedAt === null) return false;
      return options.maxStaleMs === undefined || options.now() - refreshedAt <= options.maxStaleMs;
    },
    refresh,
    health: () => ({ revoked: revoked.size, refreshedAt: refreshedAt === null ? null : new Date(refreshedAt).toISOString(), lastError }),
    start() {
      if (options.store === undefined) return Promise.resolve();
      timer = setInterval(() => void tick(), options.refreshEveryMs);
      timer.unref();
      return refresh();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
