import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createApiApp } from '../api/create-api-app.js';
import type { MeteringHealth } from '../api/health-router.js';
import type { Config } from '../config/config-schema.js';
import { createMetrics } from '../lib/create-metrics.js';
import type { Logger } from '../lib/create-logger.js';
import { listen } from '../lib/host-port.js';
import { HttpMeter } from '../sidecar/http-meter.js';
import { createCallerIdentifier, type Caller } from '../sidecar/identify-caller.js';
import type { Observation } from '../sidecar/observation.js';
import { createReverseProxy } from '../sidecar/reverse-proxy.js';
import { deleteExpiredTraffic } from '../store/delete-expired-traffic.js';
import { getInstallSecret } from '../store/get-install-secret.js';
import { openDatabase, type Store } from '../store/open-database.js';
import { createTallyWriter } from '../store/write-tally-batch.js';
import { Flusher } from '../tally/flusher.js';
import { Tally } from '../tally/tally.js';

export interface RunningService {
  sidecarUrl: URL;
  apiUrl: URL;
  store: Store | undefined;
  flush(): boolean;
  health(): MeteringHealth;
  /** Stops accepting traffic, counts what is still open, flushes and closes the store. */
  stop(): Promise<void>;
}

export interface StartServiceOptions {
  config: Readonly<Config>;
  upstream: URL;
  logger: Logger;
  now?: () => number;
}

const RETENTION_EVERY_MS = 3_600_000;

function openStoreSafely(path: string, logger: Logger): { store: Store | undefined; error: string | undefined } {
  try {
    return { store: openDatabase(path), error: undefined };
  } catch (error) {
    // Traffic must flow even when the database cannot be opened; counts are then dropped, visibly.
    logger.error({ err: error, db: path }, 'database unavailable; proxying continues without storage');
    return { store: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}

function installSecret(store: Store | undefined, logger: Logger): string {
  try {
    if (store !== undefined) return getInstallSecret(store.db);
  } catch (error) {
    logger.warn({ err: error }, 'install secret unavailable; using a per-process one');
  }
  return randomBytes(32).toString('base64url');
}

/** Wires the sidecar proxy, tally, store and API together and starts listening. */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const { config, logger } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
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

  let meteringErrors = 0;
  let meter: HttpMeter<Caller> | undefined;
  const metrics = createMetrics({
    droppedEvents: () => flusher.health().droppedEvents,
    retainedEvents: () => flusher.health().retainedEvents,
    pendingEvents: () => tally.stats().pendingEvents,
    overflowedEvents: () => tally.stats().overflowedEvents,
    pendingAnswers: () => meter?.pendingCount ?? 0,
    sessions: () => meter?.sessionCount ?? 0,
    lastFlushAt: () => flusher.health().lastFlushAt,
    failedFlushes: () => flusher.health().failedFlushes,
  });

  const record = (observation: Observation<Caller>) => {
    const { message, outcome, attrs } = observation;
    tally.add({
      labels: {
        era: message.era,
        transport: message.transport,
        reason: message.reason,
        version: message.version,
        method: message.method,
        outcome,
        integration: attrs.integration,
      },
      integrationSource: attrs.source,
      clientInfo: observation.clientInfo,
      claimMismatch: observation.claimMismatch,
    });
    metrics.countMessage(message.era, message.transport, message.reason, outcome);
    if (observation.claimMismatch) metrics.claimMismatches.inc();
  };
  meter = new HttpMeter<Caller>({
    record,
    maxSessions: config.caps.sessions,
    maxChannels: config.caps.sessions,
    maxPendingAnswers: config.caps.pendingAnswers,
    httpSseMessagePaths: config.httpSseMessagePaths,
    maxAnswerBytes: config.maxAnswerBytes,
  });
  const proxy = createReverseProxy({
    upstream: options.upstream,
    ...(config.publicPrefix === undefined ? {} : { publicPrefix: config.publicPrefix }),
    maxBodyBytes: config.maxBodyBytes,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    meter,
    identify: createCallerIdentifier(installSecret(store, logger)),
    onInternalError: (error, where) => {
      meteringErrors += 1;
      metrics.meteringErrors.inc({ where });
      logger.error({ err: error, where }, 'metering error; the request was passed on unmetered');
    },
  });

  const health = (): MeteringHealth => {
    const flush = flusher.health();
    const counts = tally.stats();
    const degraded = store === undefined || flush.droppedEvents > 0 || flush.consecutiveFailures > 0 || meteringErrors > 0;
    const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());
    return {
      status: degraded ? 'degraded' : 'ok',
      node: config.node,
      upstream: options.upstream.origin,
      uptimeSeconds: Math.round((now() - startedAt) / 1000),
      store: { path: store?.path ?? config.db, available: store !== undefined, error: storeError ?? null },
      metering: {
        events: counts.events,
        pendingEvents: counts.pendingEvents,
        retainedEvents: flush.retainedEvents,
        droppedEvents: flush.droppedEvents,
        overflowedEvents: counts.overflowedEvents,
        meteringErrors,
        failedFlushes: flush.failedFlushes,
        consecutiveFailures: flush.consecutiveFailures,
        lastFlushAt: iso(flush.lastFlushAt),
        lastFlushError: flush.lastError ?? null,
        openSessions: meter?.sessionCount ?? 0,
        pendingAnswers: meter?.pendingCount ?? 0,
      },
    };
  };

  const sidecar = createServer({ requestTimeout: 0 }, (req, res) => proxy.handle(req, res));
  sidecar.keepAliveTimeout = 65_000;
  const api = createServer(
    createApiApp({
      db: store?.db,
      now,
      beforeRead: () => flusher.flushNow(),
      health,
      registry: metrics.registry,
      onUnexpectedError: (error) => logger.error({ err: error }, 'api error'),
    }),
  );
  const sidecarUrl = await listen(sidecar, config.listen);
  const apiUrl = await listen(api, config.dashboard);
  flusher.start();

  const applyRetention = () => {
    if (store === undefined) return;
    try {
      deleteExpiredTraffic(store.db, now(), config.retention);
    } catch (error) {
      logger.warn({ err: error }, 'retention pass failed; will retry');
    }
  };
  applyRetention();
  const retention = setInterval(applyRetention, RETENTION_EVERY_MS);
  retention.unref();

  logger.info({ sidecar: sidecarUrl.origin, api: apiUrl.origin, upstream: options.upstream.href, db: store?.path }, 'mcp-sunset serving');
  return {
    sidecarUrl,
    apiUrl,
    store,
    flush: () => flusher.flushNow(),
    health,
    async stop() {
      clearInterval(retention);
      await closeServer(sidecar);
      meter?.settleAllPending();
      flusher.stop();
      proxy.close();
      await closeServer(api);
      store?.close();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Open SSE streams would hold close() forever; their exchanges are settled as the sockets end.
    server.closeAllConnections();
  });
}
