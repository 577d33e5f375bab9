import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import { listen } from '../lib/host-port.js';
import { redactStoreSecrets } from '../lib/redact-store-secrets.js';
import { httpMeterOptions } from '../metering/http-meter-options.js';
import { HttpMeter } from '../sidecar/http-meter.js';
import type { Caller } from '../sidecar/identify-caller.js';
import type { OAuthHealth } from '../identity/create-oauth-verifier.js';
import { authChallengeFromConfig, callerIdentifierFromConfig } from '../metering/caller-identifier-from-config.js';
import { createReverseProxy } from '../sidecar/reverse-proxy.js';
import type { Store } from '../store/store.js';
import { computeMeteringHealth, type MeteringHealthReport } from '../tally/compute-metering-health.js';
import type { OtelHealth } from '../otel/start-otel-export.js';
import { createMetering, type FinalFlush } from './create-metering.js';
import { createSidecarServer } from './create-sidecar-server.js';
import { drainSidecar } from './drain-sidecar.js';
import { startApi } from './start-api.js';
import { createPolicyRefresher, type PolicyHealth } from '../metering/create-policy-refresher.js';
import { createLegacyHttpBridge, type BridgeHealth } from '../bridge/legacy-http-bridge.js';
import { bridgeRingFromConfig } from './bridge-ring-from-config.js';
import { checkBridgeNodeUrl } from './check-bridge-node-url.js';
import { createRevocationRefresher, type RevocationHealth } from '../metering/create-revocation-refresher.js';
import { discoverUrlsOf, watchUpstreamVersions, type UpstreamVersionsHealth } from '../prober/watch-upstream-versions.js';
import { isUnderPublicPrefix, toUpstreamPath, type PathMapping } from '../sidecar/path-mapping.js';
import { placeRequestTarget } from '../sidecar/place-request-target.js';

/** The server path a bridged Streamable HTTP request's modern requests go to, as the proxy would forward it; undefined outside the prefix. */
function bridgeUpstreamPath(clientPath: string, mapping: PathMapping): string | undefined {
  const placed = placeRequestTarget(clientPath) ?? clientPath;
  if (!isUnderPublicPrefix(placed, mapping)) return undefined;
  const path = toUpstreamPath(placed, mapping);
  return path === '' ? '/' : path;
}

export interface RunningService {
  sidecarUrl: URL;
  apiUrl: URL;
  store: Store | undefined;
  flush(): Promise<boolean>;
  health(): ServiceHealth;
  /** Rebuilds the retirement policy from the store now. */
  refreshPolicy(): Promise<void>;
  /** Evaluates the alert rules now (and delivers); undefined without a store. */
  runAlerts: (() => Promise<unknown>) | undefined;
  /** Fetches the OAuth applications' names that are due now; undefined where `identity.oauth.clientNames` is off (or alerts are not scheduled here). */
  refreshClientNames: (() => Promise<unknown>) | undefined;
  /** Stops accepting traffic, counts what is still open, flushes (or spools) and closes the store. */
  stop(): Promise<FinalFlush>;
}

/** The bridge on /healthz: whether it knows the revoked sessions, and what it holds open. */
export type BridgeServiceHealth = BridgeHealth & { nodeUrl: string | null; revocations: RevocationHealth & { known: boolean } };

/** How callers are identified, on /healthz: the OAuth issuers' state and verdicts; null when no issuer is configured. */
export type IdentityHealth = { oauth: OAuthHealth } | null;

/** /healthz: the metering pipeline's health and the retirement policy in force; `dashboard` reports role `dashboard`. */
export type ServiceHealth = { role: 'sidecar' } & MeteringHealthReport & {
  policy: PolicyHealth & { discovery: UpstreamVersionsHealth | null };
  otel: OtelHealth | null;
  bridge: BridgeServiceHealth | null;
  identity: IdentityHealth;
};

function identityHealth(oauth: OAuthHealth | null): IdentityHealth {
  return oauth === null ? null : { oauth };
}

/** A bridge that honours no session, because it cannot read which are revoked, degrades the node: legacy clients are refused. */
function withBridgeHealth(health: ServiceHealth): ServiceHealth {
  if (health.bridge === null || health.bridge.revocations.known || health.status === 'degraded') return health;
  const why = health.bridge.revocations.lastError ?? 'not read yet';
  return { ...health, status: 'degraded', reason: `bridged sessions refused: the revoked sessions cannot be read (${why})` };
}

/** The relay path of a request-target: where it is served, and only inside the public prefix. */
function bridgeRelayPath(target: string, mapping: PathMapping): string | undefined {
  const placed = placeRequestTarget(target);
  return placed !== undefined && isUnderPublicPrefix(placed, mapping) ? placed : undefined;
}

export interface StartServiceOptions {
  config: Readonly<Config>;
  upstream: URL;
  logger: Logger;
  now?: () => number;
}

const RETENTION_EVERY_MS = 3_600_000;

/** Wires the sidecar proxy, tally, store and API together and starts listening. */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const { config, logger } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
  // First: a bridge without its key stops the start before anything is opened.
  const ring = config.bridge.enabled ? bridgeRingFromConfig(config.bridge) : undefined;
  checkBridgeNodeUrl(config);
  let meteringErrors = 0;
  // The gauges read the meter lazily, on scrape, after it exists; the heartbeat reads the policy at each flush, after it exists.
  const metering = await createMetering(
    config,
    logger,
    now,
    { pendingAnswers: () => meter.pendingCount, sessions: () => meter.sessionCount, meterMemory: () => meter.memory() },
    { kind: 'serve', startedAt, policyVersion: () => policy.current().version, pausedPlans: () => policy.current().pausedPlans(now()).length },
  );
  const { store, storeError, tally, flusher, metrics, record } = metering;
  const meter = new HttpMeter<Caller>(httpMeterOptions(config, record));
  // The versions a refusal names come from the server itself, unless the config names them.
  const upstreamVersions = config.enforcement.supportedVersions === undefined && config.enforcement.discoverEveryMs > 0
    ? watchUpstreamVersions({ urls: discoverUrlsOf(options.upstream), everyMs: config.enforcement.discoverEveryMs, now, onChecked: () => void policy.refresh() })
    : undefined;
  const policy = createPolicyRefresher({
    store,
    now,
    supportedVersions: config.enforcement.supportedVersions,
    discoveredVersions: upstreamVersions?.current,
    // The server is asked only once a plan may refuse: a sidecar that only counts sends it nothing of its own.
    onEnforcing: () => void upstreamVersions?.start(),
    logger,
  });
  // Read only where a bridge honours sessions: elsewhere there is nothing to revoke.
  const revocations = createRevocationRefresher({
    store: ring === undefined ? undefined : store,
    // A bridge node whose store cannot be opened cannot know what is revoked: it honours no session.
    storeExpected: ring !== undefined,
    now,
    logger,
    refreshEveryMs: config.bridge.revocationRefreshMs,
    maxStaleMs: config.bridge.revocationMaxStaleMs,
    // Expiry and revocation reach the streams and channels already open, not only the next request.
    onRefreshed: () => bridge?.sweep(),
  });
  let listening: URL | undefined;
  const identify = callerIdentifierFromConfig(config.identity, metering.installSecret);
  const upstreamPrefix = options.upstream.pathname.replace(/\/+$/, '');
  const bridgeMapping: PathMapping = { upstreamPrefix, publicPrefix: config.publicPrefix ?? upstreamPrefix };
  const bridge = ring === undefined
    ? undefined
    : createLegacyHttpBridge({
      upstream: options.upstream,
      // The bridge's modern requests go where the proxy would forward the client's own request.
      modernPathOf: (clientPath) => bridgeUpstreamPath(clientPath, bridgeMapping),
      defaultPath: discoverUrlsOf(options.upstream)[0]!.pathname,
      ring,
      sessionTtlMs: config.bridge.sessionTtlMs,
      inputTimeoutMs: config.bridge.inputTimeoutMs,
      isRevoked: revocations.isRevoked,
      revocationsKnown: revocations.known,
      sweepEveryMs: config.bridge.revocationRefreshMs,
      relayPathOf: (target) => bridgeRelayPath(target, bridgeMapping),
      maxBodyBytes: config.maxBodyBytes,
      // Read when an elicitation is sent, by then the sidecar listens.
      nodeUrl: () => config.bridge.nodeUrl ?? listening?.origin,
      bindingOf: identify.bindingOf,
      now,
    });
  const proxy = createReverseProxy({
    upstream: options.upstream,
    ...(config.publicPrefix === undefined ? {} : { publicPrefix: config.publicPrefix }),
    maxBodyBytes: config.maxBodyBytes,
    connectTimeoutMs: config.upstreamConnectTimeoutMs,
    meter,
    identify,
    identityReady: identify.ready,
    authChallenge: authChallengeFromConfig(config.identity),
    onNonMcp: () => metering.countNonMcp(),
    nonMcpPaths: config.nonMcpPaths,
    policy: policy.current,
    ...(bridge === undefined ? {} : { bridge }),
    now,
    onInternalError: (error, where) => {
      meteringErrors += 1;
      metrics.meteringErrors.inc({ where });
      logger.error({ err: error, where }, 'metering error; the request was passed on unmetered');
    },
  });

  const health = (): ServiceHealth => withBridgeHealth({
    role: 'sidecar',
    ...computeMeteringHealth({
      node: config.node,
      upstream: options.upstream.origin,
      startedAt,
      now: now(),
      store: { path: redactStoreSecrets(store?.location ?? config.db, config.db), available: store !== undefined, error: storeError },
      flush: flusher.health(),
      counts: tally.stats(),
      meteringErrors,
      openSessions: meter.sessionCount,
      pendingAnswers: meter.pendingCount,
      memory: meter.memory(),
      nonMcpRequests: metering.nonMcpRequests,
      spooledEvents: metering.spooledEvents,
    }),
    policy: { ...policy.health(), discovery: upstreamVersions?.health() ?? null },
    otel: metering.otelHealth(),
    identity: identityHealth(identify.health()),
    bridge: bridge === undefined
      ? null
      : { ...bridge.health(), nodeUrl: config.bridge.nodeUrl ?? listening?.origin ?? null, revocations: { ...revocations.health(), known: revocations.known() } },
  });

  // The first table is built before traffic is taken, so a plan in force applies from the first request.
  await policy.start();
  await revocations.start();
  const sidecar = createSidecarServer(config.tls, config, (req, res) => proxy.handle(req, res));
  const sidecarUrl = await listen(sidecar, config.listen);
  listening = sidecarUrl;
  const api = await startApi({
    config,
    store,
    logger,
    now,
    health,
    registry: metrics.registry,
    beforeRead: async () => void (await flusher.flushNow()),
    metering: () => flusher.health(),
    onPlansChanged: () => policy.refresh(),
    onRevocationsChanged: () => revocations.refresh(),
  });
  const { url: apiUrl, alertRunner } = api;
  flusher.start();

  const applyRetention = async () => {
    if (store === undefined) return;
    try {
      await store.deleteExpiredTraffic(now(), config.retention);
      await store.deleteExpiredBridgeRevocations(now());
    } catch (error) {
      logger.warn({ err: error }, 'retention pass failed; will retry');
    }
  };
  void applyRetention();
  const retention = setInterval(() => void applyRetention(), RETENTION_EVERY_MS);
  retention.unref();

  logger.info({ sidecar: sidecarUrl.origin, api: apiUrl.origin, upstream: options.upstream.href, db: redactStoreSecrets(store?.location ?? config.db, config.db), alertsScheduled: config.alerts.scheduled, bridge: config.bridge.enabled }, 'mcp-sunset serving');
  return {
    sidecarUrl,
    apiUrl,
    store,
    flush: () => flusher.flushNow(),
    health,
    refreshPolicy: () => policy.refresh(),
    runAlerts: alertRunner === undefined ? undefined : () => alertRunner.run(),
    refreshClientNames: api.refreshClientNames,
    async stop() {
      // First, so no run starts against a store that is about to close; pending deliveries are abandoned.
      await api.stopSchedules();
      clearInterval(retention);
      policy.stop();
      upstreamVersions?.stop();
      revocations.stop();
      const { cut } = await drainSidecar({ server: sidecar, proxy, answersAwaited: () => meter.pendingCount > 0, graceMs: config.shutdownGraceMs });
      if (cut > 0) logger.info({ cut }, 'requests still open at the shutdown deadline were closed and counted as cancelled');
      meter.settleAllPending('cancelled');
      const final = await metering.finish();
      proxy.close();
      identify.close();
      await api.close();
      await store?.close();
      return final;
    },
  };
}
