import { randomBytes } from 'node:crypto';
import { Counter } from 'prom-client';
import type { Config } from '../config/config-schema.js';
import { createMetrics, type Metrics } from '../lib/create-metrics.js';
import type { Logger } from '../lib/create-logger.js';
import type { Caller } from '../sidecar/identify-caller.js';
import type { Observation } from '../sidecar/observation.js';
import { getInstallSecret } from '../store/get-install-secret.js';
import { openDatabase, type Store } from '../store/open-database.js';
import { createTallyWriter } from '../store/write-tally-batch.js';
import { Flusher } from '../tally/flusher.js';
import { Tally } from '../tally/tally.js';

export interface Metering {
  store: Store | undefined;
  storeError: string | undefined;
  tally: Tally;
  flusher: Flusher;
  metrics: Metrics;
  /** Counts one settled message. */
  record(observation: Observation<Caller>): void;
  /** Counts one request passed on that cannot be MCP (OAuth discovery, a page outside the prefix, …). */
  countNonMcp(): void;
  /** Such requests passed on since start. */
  readonly nonMcpRequests: number;
  /** The per-install secret caller fingerprints are keyed with. */
  installSecret(): string;
}

export interface MeteringGaugeSources {
  pendingAnswers: () => number;
  sessions: () => number;
}

function openStoreSafely(path: string, logger: Logger): { store: Store | undefined; error: string | undefined } {
  try {
    return { store: openDatabase(path), error: undefined };
  } catch (error) {
    // Traffic must flow even when the database cannot be opened; counts are then dropped, visibly.
    logger.error({ err: error, db: path }, 'database unavailable; traffic continues without storage');
    return { store: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The counting pipeline every sidecar form shares: observation → tally → flusher → SQLite, plus
 * the Prometheus counters. Opening the store may fail; counting then goes on and the flusher
 * reports what it had to drop.
 */
export function createMetering(config: Readonly<Config>, logger: Logger, now: () => number, gauges: MeteringGaugeSources): Metering {
  const { store, error: storeError } = openStoreSafely(config.db, logger);
  const writeBatch = store === undefined ? undefined : createTallyWriter(store.db);
  const tally = new Tally({
    node: config.node,
    now,
    maxCells: config.caps.cells,
    maxIntegrations: config.caps.integrations,
    maxMethods: config.caps.methods,
    maxVersions: config.caps.versions,
  });
  const flusher = new Flusher({
    tally,
    now,
    intervalMs: config.flushIntervalMs,
    maxAttempts: config.flushMaxAttempts,
    sink: {
      write(batch) {
        if (writeBatch === undefined) throw new Error(`database unavailable: ${storeError}`);
        writeBatch(batch);
      },
    },
    onError: (error, context) => logger.warn({ err: error, ...context }, 'flush failed; counts kept for retry'),
  });
  const metrics = createMetrics({
    droppedEvents: () => flusher.health().droppedEvents,
    retainedEvents: () => flusher.health().retainedEvents,
    pendingEvents: () => tally.stats().pendingEvents,
    overflowedEvents: () => tally.stats().overflowedEvents,
    pendingAnswers: gauges.pendingAnswers,
    sessions: gauges.sessions,
    lastFlushAt: () => flusher.health().lastFlushAt,
    failedFlushes: () => flusher.health().failedFlushes,
  });

  // Kept apart from the MCP counts: no era, transport or reason describes these requests.
  const nonMcpCounter = new Counter({
    name: 'mcp_sunset_non_mcp_requests_total',
    help: 'Requests passed on to the upstream that cannot carry MCP (outside the public prefix, /.well-known/, other methods)',
    registers: [metrics.registry],
  });
  let nonMcpRequests = 0;

  return {
    store,
    storeError,
    tally,
    flusher,
    metrics,
    record(observation) {
      const { message, outcome, attrs } = observation;
      tally.add({
        labels: {
          era: message.era,
          transport: message.transport,
          reason: message.reason,
          version: message.version,
          method: message.method,
          kind: message.kind,
          outcome,
          integration: attrs.integration,
        },
        integrationSource: attrs.source,
        clientInfo: observation.clientInfo,
        claimMismatch: observation.claimMismatch,
      });
      metrics.countMessage(message.era, message.transport, message.reason, outcome);
      if (observation.claimMismatch) metrics.claimMismatches.inc();
    },
    countNonMcp() {
      nonMcpRequests += 1;
      nonMcpCounter.inc();
    },
    get nonMcpRequests() {
      return nonMcpRequests;
    },
    installSecret() {
      try {
        if (store !== undefined) return getInstallSecret(store.db);
      } catch (error) {
        logger.warn({ err: error }, 'install secret unavailable; using a per-process one');
      }
      return randomBytes(32).toString('base64url');
    },
  };
}
