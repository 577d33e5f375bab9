import { createServer, type Server } from 'node:http';
import { createAlertRunner, type AlertRunner } from '../alerts/run-alerts.js';
import type { MeteringSnapshot } from '../alerts/alert-context.js';
import { refreshClientNames, type ClientNamesRun } from '../alerts/refresh-client-names.js';
import { createDigestSender } from '../alerts/run-digest.js';
import { scheduleAlerts } from '../alerts/schedule-alerts.js';
import { scheduleClientNames } from '../alerts/schedule-client-names.js';
import { scheduleDigest } from '../alerts/schedule-digest.js';
import { createApiApp, type ApiDeps } from '../api/create-api-app.js';
import { serveDashboard } from '../api/serve-dashboard.js';
import type { Config } from '../config/config-schema.js';
import { createFleetHoldOffs } from '../fleet/fleet-hold-offs.js';
import { runFleetCheck } from '../fleet/run-fleet-check.js';
import { scheduleFleetChecks } from '../fleet/schedule-fleet-checks.js';
import { AppError } from '../lib/app-error.js';
import type { Logger } from '../lib/create-logger.js';
import { listen } from '../lib/host-port.js';
import { probe } from '../prober/probe.js';
import type { Store } from '../store/store.js';
import { clientNameSourceFromConfig } from './client-name-source-from-config.js';

export interface StartApiOptions {
  config: Readonly<Config>;
  store: Store | undefined;
  logger: Logger;
  now: () => number;
  health: ApiDeps['health'];
  registry: ApiDeps['registry'];
  /** Writes counts still held in memory before a read; a process that counts nothing has none to write. */
  beforeRead?: () => Promise<void>;
  /** The flusher's health for the metering-loss rule; absent where nothing is metered. */
  metering?: () => MeteringSnapshot;
  /** Told after a plan changed through this API. */
  onPlansChanged?: () => Promise<void>;
  /** Told after a bridge session was revoked through this API. */
  onRevocationsChanged?: () => Promise<void>;
}

export interface RunningApi {
  url: URL;
  /** Undefined without a store. */
  alertRunner: AlertRunner | undefined;
  /** Fetches the OAuth applications' names that are due now (after a run under way); undefined where they are not fetched. */
  refreshClientNames: (() => Promise<ClientNamesRun>) | undefined;
  /** Stops the alert, client-name and fleet schedules; pending deliveries are abandoned. First, before the store closes. */
  stopSchedules(): Promise<void>;
  /** Closes the listener and its open connections. */
  close(): Promise<void>;
}

/**
 * The dashboard side every serving command shares: API, dashboard, /healthz and /metrics on the
 * dashboard address, with the alert and fleet schedules that judge the store. Listens before it schedules.
 */
export async function startApi(options: StartApiOptions): Promise<RunningApi> {
  const { config, store, logger, now } = options;
  const beforeRead = options.beforeRead ?? (async () => undefined);
  const alertRunner =
    store === undefined
      ? undefined
      : createAlertRunner({
          store,
          now,
          thresholds: config.analysis,
          settings: config.alerts,
          ...(options.metering === undefined ? {} : { metering: options.metering }),
          beforeRead,
          logger,
          node: config.node,
        });

  const digestConfig = config.alerts.digest;
  // Without a configured address, the one the API listens on, known once it listens (a port 0 is chosen then).
  let listening: URL | undefined;
  const digestLinks = () => {
    const dashboardUrl = new URL(digestConfig.dashboardUrl ?? listening ?? `http://${config.dashboard}/`);
    // The print view sits beside the dashboard's page: resolve it inside a path prefix, not beside it.
    if (!dashboardUrl.pathname.endsWith('/')) dashboardUrl.pathname += '/';
    return { dashboard: dashboardUrl.href, print: new URL('digest.html', dashboardUrl).href };
  };
  const digestSender =
    store === undefined
      ? undefined
      : createDigestSender({
          store,
          now,
          node: config.node,
          webhooks: config.alerts.webhooks,
          policy: { maxAttempts: config.alerts.maxAttempts, initialBackoffMs: config.alerts.initialBackoffMs },
          thresholds: config.analysis,
          top: digestConfig.topCallers,
          links: digestLinks,
          beforeRead,
          logger,
        });
  // Like the rules, only where they run on schedule; the store's claim keeps a fleet to one digest each time.
  const digestSchedule =
    digestSender === undefined || !config.alerts.scheduled || !digestConfig.enabled
      ? undefined
      : scheduleDigest({ expression: digestConfig.schedule, timeZone: digestConfig.timeZone, sender: digestSender, logger });

  const fleetNodes = config.fleet.nodes;
  const fleetHoldOffs = createFleetHoldOffs();
  const checkFleet = async (names?: readonly string[]) => {
    if (store === undefined) throw new AppError('store_unavailable', 'the database could not be opened; see /healthz');
    return runFleetCheck({
      store,
      now,
      nodes: names === undefined ? fleetNodes : fleetNodes.filter((node) => names.includes(node.name)),
      timeoutMs: config.fleet.timeoutMs,
      logger,
      holdOffs: fleetHoldOffs,
      // One attempt per scheduled check: the schedule is the retry, and a slow node must not hold the rest.
      probeNode: (node) => probe({ name: node.name, target: { kind: 'http', url: node.url } }, { probeTimeoutMs: config.fleet.timeoutMs, initializeTimeoutMs: config.fleet.timeoutMs, attempts: 1 }),
    });
  };

  const server = createServer(
    createApiApp({
      store,
      now,
      beforeRead,
      health: options.health,
      registry: options.registry,
      thresholds: config.analysis,
      adminTokens: [...(config.adminToken === undefined ? [] : [{ name: null, token: config.adminToken }]), ...config.adminTokens],
      hosts: { dashboard: config.dashboard, allowed: config.allowedHosts },
      dashboard: serveDashboard(),
      alertRunner,
      fleet: { nodes: fleetNodes.map((n) => n.name), check: checkFleet },
      digest: {
        top: digestConfig.topCallers,
        links: digestLinks,
        sender: digestSender,
        schedule: digestSchedule === undefined ? null : { expression: digestConfig.schedule, timeZone: digestConfig.timeZone, nextRun: digestSchedule.nextRun },
      },
      onUnexpectedError: (error) => logger.error({ err: error }, 'api error'),
      ...(options.onPlansChanged === undefined ? {} : { onPlansChanged: options.onPlansChanged }),
      ...(options.onRevocationsChanged === undefined ? {} : { onRevocationsChanged: options.onRevocationsChanged }),
      // Only where the rules run on schedule: another process sharing the store runs them otherwise.
      ...(alertRunner === undefined || !config.alerts.scheduled
        ? {}
        : { onPausesChanged: () => void alertRunner.run().catch((error: unknown) => logger.error({ err: error }, 'alert run after a pause failed; the schedule will retry')) }),
    }),
  );
  const url = await listen(server, config.dashboard);
  listening = url;

  const stopAlerts =
    alertRunner === undefined ? async () => undefined : config.alerts.scheduled ? scheduleAlerts({ expression: config.alerts.schedule, runner: alertRunner, logger }) : () => alertRunner.close();
  const stopFleet = store === undefined || fleetNodes.length === 0 ? async () => undefined : scheduleFleetChecks(config.fleet.schedule, () => checkFleet(), logger);
  // Like the digest, only where the rules run on schedule, so a fleet sharing the store fetches each document once.
  const oauth = config.identity.oauth;
  const nameSource = store === undefined || !config.alerts.scheduled || !oauth.clientNames.enabled ? undefined : clientNameSourceFromConfig(oauth, logger);
  const clientNames =
    store === undefined || nameSource === undefined
      ? undefined
      : scheduleClientNames((signal) => refreshClientNames({ store, source: nameSource, now, refreshMs: oauth.clientNames.refreshHours * 3_600_000, logger, signal }), logger);

  return {
    url,
    alertRunner,
    refreshClientNames: clientNames?.runNow,
    async stopSchedules() {
      await stopAlerts();
      await clientNames?.stop();
      await (digestSchedule?.stop() ?? digestSender?.close());
      await stopFleet();
    },
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Idle keep-alive connections would hold close() open.
    server.closeAllConnections();
  });
}
