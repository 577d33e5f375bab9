import { existsSync } from 'node:fs';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import { createProcessRegistry } from '../lib/create-process-registry.js';
import { redactStoreError } from '../lib/redact-store-error.js';
import { redactStoreLocation } from '../lib/redact-store-location.js';
import { redactStoreSecrets } from '../lib/redact-store-secrets.js';
import type { Store } from '../store/store.js';
import { openStoreSafely } from '../metering/open-store-safely.js';
import { isPostgresLocation } from '../store/is-postgres-location.js';
import { startApi } from './start-api.js';
import { syncConfigPlans } from './sync-config-plans.js';

/** /healthz of a process that serves the dashboard and counts nothing. */
export interface DashboardHealth {
  status: 'ok' | 'degraded';
  /** Why degraded, in words; null when ok. */
  reason: string | null;
  role: 'dashboard';
  node: string;
  uptimeSeconds: number;
  /** `available`: opened at start; `readable`: answered a read for this report. */
  store: { path: string; available: boolean; readable: boolean; error: string | null };
  /** The stored policy version, which the sidecars compile from; null when the store cannot be read. */
  policy: { storedVersion: number | null };
  alerts: { scheduled: boolean };
  /** No traffic passes through this process: no proxy, tally or flusher. */
  metering: null;
}

export interface RunningDashboard {
  apiUrl: URL;
  store: Store | undefined;
  health(): Promise<DashboardHealth>;
  stop(): Promise<void>;
}

/**
 * The API, dashboard, /healthz and /metrics over a store the sidecars write to, with no proxy and no
 * counts of its own; alerts and fleet checks run on their schedules as under `serve`.
 */
export async function startDashboard(options: { config: Readonly<Config>; logger: Logger; now?: () => number }): Promise<RunningDashboard> {
  const { config, logger } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const shownPath = redactStoreLocation(config.db);
  // A mistyped --db would otherwise show an empty dashboard without a word.
  if (config.db !== ':memory:' && !isPostgresLocation(config.db) && !existsSync(config.db)) logger.warn({ db: shownPath }, 'no database there yet; an empty one is created, and counts appear once sidecars write to it');
  const { store, error: storeError } = await openStoreSafely(config.db, logger, 'the API answers 503 until a restart can open it');
  if (store !== undefined) await syncConfigPlans(store, config, logger, now());

  const health = async (): Promise<DashboardHealth> => {
    let storedVersion: number | null = null;
    let readError: string | null = null;
    if (store !== undefined) {
      try {
        storedVersion = await store.getPolicyVersion();
      } catch (error) {
        readError = redactStoreError(error, config.db).message;
      }
    }
    const reason = store === undefined ? `database unavailable: ${storeError ?? 'unknown error'}` : readError === null ? null : `database unreadable: ${readError}`;
    return {
      status: reason === null ? 'ok' : 'degraded',
      reason,
      role: 'dashboard',
      node: config.node,
      uptimeSeconds: Math.round((now() - startedAt) / 1000),
      store: { path: store === undefined ? shownPath : redactStoreSecrets(store.location, config.db), available: store !== undefined, readable: storedVersion !== null, error: storeError ?? readError },
      policy: { storedVersion },
      alerts: { scheduled: config.alerts.scheduled },
      metering: null,
    };
  };

  const api = await startApi({ config, store, logger, now, health, registry: createProcessRegistry() });
  logger.info({ api: api.url.origin, db: shownPath, alertsScheduled: config.alerts.scheduled }, 'mcp-sunset dashboard serving');
  return {
    apiUrl: api.url,
    store,
    health,
    async stop() {
      // First, so no run starts against a store that is about to close.
      await api.stopSchedules();
      await api.close();
      await store?.close();
    },
  };
}
