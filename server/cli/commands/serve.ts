import { relative } from 'node:path';
import type { Config } from '../../config/config-schema.js';
import { startDemoServer } from '../../demo/demo-server.js';
import { startDemoTraffic } from '../../demo/demo-traffic.js';
import { identifyDemoClients } from '../../demo/identify-demo-clients.js';
import { measureDemoHistoryDay } from '../../demo/measure-demo-history-day.js';
import { seedDemoHistory } from '../../demo/seed-demo-history.js';
import { withDemoIdentity } from '../../demo/with-demo-identity.js';
import { createLogger } from '../../lib/create-logger.js';
import { redactStoreLocation } from '../../lib/redact-store-location.js';
import { createCallerIdentifier } from '../../sidecar/identify-caller.js';
import { getInstallSecret } from '../../store/sqlite/get-install-secret.js';
import { openDatabase } from '../../store/sqlite/open-database.js';
import { startService } from '../start-service.js';

const DEMO_STOP_MS = 3_000;

/** Waits for `work` at most `ms`; answers whether it finished. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** How this CLI was started, so the hints it prints can be pasted back into the same shell. */
function selfCommand(): string {
  const script = process.argv[1] ?? '';
  const local = relative(process.cwd(), script);
  return script.endsWith('main.js') && !local.startsWith('..') ? `node ${local}` : 'mcp-sunset';
}

/**
 * Runs the sidecar and API until SIGTERM/SIGINT. Without an upstream it runs the demo: the bundled
 * dual-era server behind the sidecar, with real SDK clients of both eras sending traffic through.
 */
export async function runServe(operatorConfig: Readonly<Config>, options: { demo: boolean }): Promise<void> {
  const logger = createLogger(operatorConfig.logLevel, operatorConfig.db);
  // Listening from the first moment: a signal during a slow start (the demo seeds months of history)
  // waits for the start to finish and then stops cleanly, instead of killing the process mid-write.
  let stop: ((signal: string) => Promise<void>) | undefined;
  let requested: string | undefined;
  const onSignal = (signal: string) => (stop === undefined ? (requested ??= signal) : void stop(signal));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  const demo = options.demo || operatorConfig.upstream === undefined;
  const config = demo ? { ...operatorConfig, identity: withDemoIdentity(operatorConfig.identity) } : operatorConfig;
  const demoServer = demo ? await startDemoServer() : undefined;
  const upstream = new URL(demoServer?.origin ?? config.upstream!);
  const service = await startService({ config, upstream, logger });
  const store = service.store;
  // The demo's history is seeded into the embedded SQLite file, through a connection of its own.
  const history = demo && store?.dialect === 'sqlite' ? openDatabase(config.db) : undefined;
  let day: ReturnType<typeof measureDemoHistoryDay>;
  if (history !== undefined) {
    try {
      // Six months of history, so the first screen already tells the story the live traffic will take weeks to.
      // The callers the live clients play are filed under the keys the sidecar gives those clients.
      const identify = createCallerIdentifier({ secret: getInstallSecret(history.db), ...config.identity });
      seedDemoHistory(history.db, Date.now(), { liveCallers: identifyDemoClients(identify, config.identity.apiKeyHeader) });
      // Paced like the seeded history's recent days, so the live counts continue its curve instead of swamping it.
      day = measureDemoHistoryDay(history.db);
    } finally {
      history.close();
    }
    // The seeded plan reaches the policy now rather than on its next rebuild.
    await service.refreshPolicy();
    // curve-flattened needs two consecutive evaluations before it fires.
    await service.runAlerts?.();
    await service.runAlerts?.();
  } else if (demo && store !== undefined) {
    logger.info('the demo seeds history only into an embedded SQLite store; live demo traffic only');
  }
  const traffic = demo ? startDemoTraffic({ target: service.sidecarUrl, apiKeyHeader: config.identity.apiKeyHeader, ...(day === undefined ? {} : { day }) }) : undefined;

  const api = service.apiUrl.origin;
  process.stdout.write(
    [
      demo ? `mcp-sunset demo: real SDK clients (v1 legacy over Streamable HTTP and HTTP+SSE, v2 modern) -> sidecar ${service.sidecarUrl.origin} -> demo server ${upstream.origin}` : `mcp-sunset: sidecar ${service.sidecarUrl.origin} -> ${upstream.href}`,
      ...(config.bridge.enabled ? [`  legacy bridge on: legacy clients are answered here (HTTP+SSE at ${service.sidecarUrl.origin}/sse)`] : []),
      `  dashboard: ${api}/`,
      `  counts:  ${api}/api/v1/traffic?bucket=minute&groupBy=era`,
      `  health:  ${api}/healthz    metrics: ${api}/metrics`,
      `  summary: ${selfCommand()} report --db ${redactStoreLocation(config.db)}`,
      '  stop with Ctrl-C (counts are flushed first)',
      '',
    ].join('\n'),
  );

  let stopping = false;
  stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: flushing counts');
    // Demo clients mid-request must not hold up the flush that matters.
    if (traffic !== undefined && !(await settlesWithin(traffic.stop(), DEMO_STOP_MS))) logger.warn('demo traffic did not stop in time; leaving it');
    const { lost } = await service.stop();
    logger.debug('service stopped');
    if (demoServer !== undefined && !(await settlesWithin(demoServer.close(), DEMO_STOP_MS))) logger.warn('demo server did not close in time');
    // Counts neither stored nor spooled were logged with their number; the exit status says so too.
    process.exit(lost > 0 ? 1 : 0);
  };
  if (requested !== undefined) void stop(requested);
}
