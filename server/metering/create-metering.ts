import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { createMetrics, type Metrics } from '../lib/create-metrics.js';
import type { Logger } from '../lib/create-logger.js';
import { redactStoreError } from '../lib/redact-store-error.js';
import { redactStoreSecrets } from '../lib/redact-store-secrets.js';
import type { Caller } from '../sidecar/identify-caller.js';
import type { Observation } from '../sidecar/observation.js';
import { appendSpool } from '../store/spool-file.js';
import type { Store } from '../store/store.js';
import { Flusher, type FlushSpill } from '../tally/flusher.js';
import { DurationHistograms } from '../otel/duration-histograms.js';
import { RequestCounts } from '../otel/request-counts.js';
import { otelEnabled, startOtelExport, type OtelExport, type OtelHealth } from '../otel/start-otel-export.js';
import { BUCKET_MS, bucketStart } from '../lib/time-bucket.js';
import { DEFAULT_SHARE_BASIS } from '../protocol/work-request.js';
import { OPERATION_DURATION_BOUNDS } from '../protocol/otel-attributes.js';
import { tallyEntryOf } from '../tally/tally-entry-of.js';
import type { SidecarKind } from '../tally/tally-cell.js';
import { Tally } from '../tally/tally.js';
import { isPostgresLocation } from '../store/is-postgres-location.js';
import { openStoreSafely } from './open-store-safely.js';
import { createSpoolSpill } from './create-spool-spill.js';
import { replaySpool } from './replay-spool.js';

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
  /** The per-install secret caller fingerprints are keyed with (a per-process one without a store). */
  readonly installSecret: string;
  /** Where counts the final flush cannot write are kept for the next start. */
  readonly spoolPath: string;
  /** Events in the spool, waiting for a start with a writable store. */
  readonly spooledEvents: number;
  /** Stops the flusher after a last flush; what it cannot write goes to the spool, or is reported lost. */
  finish(): Promise<FinalFlush>;
  /** The OpenTelemetry export's state for /healthz; null while it is off. */
  otelHealth(): OtelHealth | null;
}

export interface FinalFlush {
  /** Events written to the spool because the store refused them. */
  spooled: number;
  /** Events neither stored nor spooled: gone, and logged at error level with this number. */
  lost: number;
}

export interface MeteringGaugeSources {
  pendingAnswers: () => number;
  sessions: () => number;
  /** Bytes the meter's tables hold; absent where no HTTP meter runs. */
  meterMemory?: () => { heldBytes: number; evictedForBytes: number };
}

/** Who this pipeline writes for: its node heartbeat goes with each flush. */
export interface MeteringSidecar {
  kind: SidecarKind;
  /** When this process started. */
  startedAt: number;
  /** The stored policy version of the compiled policy in force; read at each flush. */
  policyVersion: () => number;
  /** How many plans' refusals are paused now, for /metrics; absent: none. */
  pausedPlans?: () => number;
}

/**
 * The counting pipeline every sidecar form shares: observation → tally → flusher → store, plus
 * the Prometheus counters. Opening the store may fail; counting then goes on and the flusher
 * reports what it had to drop.
 */
export async function createMetering(
  config: Readonly<Config>,
  logger: Logger,
  now: () => number,
  gauges: MeteringGaugeSources,
  sidecar: MeteringSidecar,
  /** Runs once on a store that opened, before any count is written (the CLI syncs declared plans here). */
  prepareStore?: (store: Store) => Promise<void>,
): Promise<Metering> {
  const { store, error: storeError } = await openStoreSafely(config.db, logger, 'traffic continues without storage');
  if (store !== undefined) await prepareStore?.(store);
  const tally = new Tally({
    node: config.node,
    now,
    maxCells: config.caps.cells,
    maxIntegrations: config.caps.integrations,
    maxMethods: config.caps.methods,
    maxVersions: config.caps.versions,
    maxClaims: config.caps.claims,
    maxPeople: config.caps.people,
  });
  const spoolPath = resolve(config.spoolPath ?? defaultSpoolPath(config, store));
  // Derived from the location, so it may carry its secrets.
  const spoolShown = redactStoreSecrets(spoolPath, config.db);
  if (store !== undefined) {
    try {
      const replay = await replaySpool(store, spoolPath, now());
      if (replay.replayedEvents > 0 || replay.skippedBatches > 0) logger.info({ ...replay, spool: spoolShown }, 'spooled counts written to the database');
    } catch (error) {
      logger.warn({ err: redactStoreError(error, config.db), spool: spoolShown }, 'spooled counts could not be written yet; they stay in the spool');
    }
  }
  let spill: FlushSpill | undefined;
  try {
    spill = createSpoolSpill(spoolPath, config.spoolMaxBytes);
  } catch (error) {
    logger.warn({ err: redactStoreError(error, config.db), spool: spoolShown }, 'spool unreadable; counts the store cannot take in time are dropped and counted');
  }
  // Fed by each batch as it leaves the tally: what the OpenTelemetry export and /metrics' requests count.
  const requestCounts = new RequestCounts({ maxCallers: config.otel.maxCallers, maxSeries: config.otel.maxSeries });
  const durations = new DurationHistograms(config.otel.maxSeries);
  let countFault = () => undefined as void;
  const flusher = new Flusher({
    tally,
    onDrained: (batch) => {
      try {
        requestCounts.add(batch.cells);
        durations.add(tally.takeDurations());
        requestCounts.addRefusals(tally.takeRefusals());
      } catch (error) {
        countFault();
        logger.error({ err: error }, 'request counts for the export failed; the store still gets every count');
      }
    },
    node: config.node,
    stream: randomUUID(),
    now,
    intervalMs: config.flushIntervalMs,
    maxAttempts: config.flushMaxAttempts,
    ...(spill === undefined ? {} : { spill }),
    sink: {
      async write(batches, at, heartbeat) {
        if (store === undefined) throw new Error(`database unavailable: ${storeError}`);
        try {
          return await store.writeTally(batches, at, heartbeat);
        } catch (error) {
          // The flush error is logged and shown on /healthz; a driver may quote its connection string in it.
          throw redactStoreError(error, config.db);
        }
      },
    },
    // Without a store there is nowhere to say the node is alive, and an idle node must not fail flushes for it.
    ...(store === undefined ? {} : { heartbeat: (at: number) => ({ node: config.node, kind: sidecar.kind, at, policyVersion: sidecar.policyVersion(), startedAt: sidecar.startedAt }) }),
    onError: (error, context) => {
      const words = context.final
        ? 'final flush failed; the counts go to the spool'
        : context.droppedEvents > 0
          ? `flush failed; ${context.droppedEvents} counts dropped after ${config.flushMaxAttempts} attempts (the spool is full or unwritable)`
          : context.spilledEvents > 0
            ? `flush failed; ${context.spilledEvents} counts moved to the spool after ${config.flushMaxAttempts} attempts, written back when the store returns`
            : 'flush failed; counts kept for retry';
      logger.warn({ err: redactStoreError(error, config.db), ...context }, words);
    },
  });
  // Today's distinct people across the store, for /metrics and the export: read when asked, as a
  // distinct count cannot be added up from what this node counted.
  const peopleToday = async () => {
    if (store === undefined) return null;
    const from = bucketStart(now(), 'day');
    const { legacy, modern } = await store.countPeople({ from, to: from + BUCKET_MS.day });
    return { legacy, modern };
  };
  const metrics = createMetrics({
    droppedEvents: () => flusher.health().droppedEvents,
    retainedEvents: () => flusher.health().retainedEvents,
    spooledEvents: () => spill?.events() ?? 0,
    pendingEvents: () => tally.stats().pendingEvents,
    overflowedEvents: () => tally.stats().overflowedEvents,
    pendingAnswers: gauges.pendingAnswers,
    sessions: gauges.sessions,
    heldBytes: () => gauges.meterMemory?.().heldBytes ?? 0,
    bytesEvictions: () => gauges.meterMemory?.().evictedForBytes ?? 0,
    lastFlushAt: () => flusher.health().lastFlushAt,
    failedFlushes: () => flusher.health().failedFlushes,
    pausedPlans: () => sidecar.pausedPlans?.() ?? 0,
    requestSeries: () => requestCounts.withoutCallers(),
    refusalSeries: () => requestCounts.refusalsWithoutCallers(),
    durationSeries: () => ({ bounds: OPERATION_DURATION_BOUNDS, series: durations.list() }),
    people: peopleToday,
    otelExport: () => {
      const health = otel?.health();
      return health === undefined ? undefined : { up: health.state === 'ok', failedExports: health.failedExports, lastExportAt: health.lastExportAt === null ? null : Date.parse(health.lastExportAt) };
    },
  });
  countFault = () => metrics.meteringErrors.inc({ where: 'otel' });
  let otel: OtelExport | undefined;
  if (otelEnabled(config.otel)) {
    try {
      otel = startOtelExport({
        settings: config.otel,
        node: config.node,
        counts: requestCounts,
        durations,
        // Today's share across the store, as the dashboard's latest daily point reads it.
        legacyShare: async () => {
          if (store === undefined) return null;
          const { inScope, total } = await store.sumScopeShare({ kind: 'era', value: 'legacy' }, DEFAULT_SHARE_BASIS, bucketStart(now(), 'day'));
          return total > 0 ? inScope / total : null;
        },
        people: peopleToday,
        logger,
        now,
      });
    } catch (error) {
      // The export is an extra: counting and traffic go on without it.
      logger.error({ err: error }, 'OpenTelemetry export could not start; metering goes on without it');
    }
  }

  let installSecret = randomBytes(32).toString('base64url');
  if (store !== undefined) {
    try {
      installSecret = await store.getInstallSecret();
    } catch (error) {
      logger.warn({ err: redactStoreError(error, config.db) }, 'install secret unavailable; using a per-process one');
    }
  }

  let nonMcpRequests = 0;

  return {
    store,
    storeError,
    tally,
    flusher,
    metrics,
    record(observation) {
      tally.add(tallyEntryOf(observation));
      metrics.countObservation(observation);
    },
    countNonMcp() {
      nonMcpRequests += 1;
      metrics.nonMcpRequests.inc();
    },
    get nonMcpRequests() {
      return nonMcpRequests;
    },
    spoolPath,
    get spooledEvents() {
      return spill?.events() ?? 0;
    },
    async finish() {
      const stopped = await flusher.stop();
      // After the last drain, so the last counts go out too.
      await otel?.shutdown();
      if (stopped) return { spooled: 0, lost: 0 };
      const { batches, events } = flusher.takeRetained();
      try {
        // At exit the bound yields: these counts have nowhere else to go.
        for (const batch of batches) appendSpool(spoolPath, batch);
        logger.warn({ spooled: events, spool: spoolShown }, `${events} counts written to the spool; the next start with a writable database stores them`);
        return { spooled: events, lost: 0 };
      } catch (error) {
        logger.error({ err: redactStoreError(error, config.db), lost: events, spool: spoolShown }, `${events} counts lost: the final flush failed and the spool could not be written`);
        return { spooled: 0, lost: events };
      }
    },
    installSecret,
    otelHealth: () => otel?.health() ?? null,
  };
}

/**
 * Beside the SQLite file. A Postgres store is shared and remote, so its spool is local: in the
 * working directory, named after the node (several nodes may share a directory).
 */
function defaultSpoolPath(config: Readonly<Config>, store: Store | undefined): string {
  if (isPostgresLocation(config.db)) return `mcp-sunset-${config.node.replace(/[^A-Za-z0-9._-]/g, '_')}.spool`;
  return `${store?.location ?? config.db}.spool`;
}
