import { relative } from 'node:path';
import type { Config } from '../../config/config-schema.js';
import { startDemoServer } from '../../demo/demo-server.js';
import { startDemoTraffic } from '../../demo/demo-traffic.js';
import { createLogger } from '../../lib/create-logger.js';
import { startService } from '../start-service.js';

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
  const traffic = demo ? startDemoTraffic({ target: service.sidecarUrl }) : undefined;

  const api = service.apiUrl.origin;
  process.stdout.write(
    [
      demo ? `mcp-sunset demo: real SDK clients (v1 legacy over Streamable HTTP and HTTP+SSE, v2 modern) -> sidecar ${service.sidecarUrl.origin} -> demo server ${upstream.origin}` : `mcp-sunset: sidecar ${service.sidecarUrl.origin} -> ${upstream.href}`,
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
    await traffic?.stop();
    await service.stop();
    await demoServer?.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
