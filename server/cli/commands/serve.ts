import { relative } from 'node:path';
import type { Config } from '../../config/config-schema.js';
import { startDemoServer } from '../../demo/demo-server.js';
import { startDemoTraffic } from '../../demo/demo-traffic.js';
import { seedDemoHistory } from '../../demo/seed-demo-history.js';
import { createLogger } from '../../lib/create-logger.js';
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
export async function runServe(config: Readonly<Config>, options: { demo: boolean }): Promise<void> {
  const logger = createLogger(config.logLevel);
  const demo = options.demo || config.upstream === undefined;
  const demoServer = demo ? await startDemoServer() : undefined;
  const upstream = new URL(demoServer?.origin ?? config.upstream!);
  const service = await startService({ config, upstream, logger });
  if (demo && service.store !== undefined) {
    // Six months of history, so the first screen already tells the story the live traffic will take weeks to.
    seedDemoHistory(service.store.db, Date.now());
    // curve-flattened needs two consecutive evaluations before it fires.
    await service.runAlerts?.();
    await service.runAlerts?.();
  }
  const traffic = demo ? startDemoTraffic({ target: service.sidecarUrl }) : undefined;

  const api = service.apiUrl.origin;
  process.stdout.write(
    [
      demo ? `mcp-sunset demo: real SDK clients (v1 legacy over Streamable HTTP and HTTP+SSE, v2 modern) -> sidecar ${service.sidecarUrl.origin} -> demo server ${upstream.origin}` : `mcp-sunset: sidecar ${service.sidecarUrl.origin} -> ${upstream.href}`,
      `  dashboard: ${api}/`,
      `  counts:  ${api}/api/v1/traffic?bucket=minute&groupBy=era`,
      `  health:  ${api}/healthz    metrics: ${api}/metrics`,
      `  summary: ${selfCommand()} report --db ${config.db}`,
      '  stop with Ctrl-C (counts are flushed first)',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: flushing counts');
    // Demo clients mid-request must not hold up the flush that matters.
    if (traffic !== undefined && !(await settlesWithin(traffic.stop(), DEMO_STOP_MS))) logger.warn('demo traffic did not stop in time; leaving it');
    await service.stop();
    logger.debug('service stopped');
    if (demoServer !== undefined && !(await settlesWithin(demoServer.close(), DEMO_STOP_MS))) logger.warn('demo server did not close in time');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
