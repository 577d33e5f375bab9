import type { Config } from '../../config/config-schema.js';
import { createLogger } from '../../lib/create-logger.js';
import { redactStoreLocation } from '../../lib/redact-store-location.js';
import { startDashboard } from '../start-dashboard.js';

/** Serves the API and dashboard over the store until SIGTERM/SIGINT; there is nothing to flush. */
export async function runDashboard(config: Readonly<Config>): Promise<void> {
  const logger = createLogger(config.logLevel, config.db);
  const dashboard = await startDashboard({ config, logger });
  const api = dashboard.apiUrl.origin;
  process.stdout.write(
    [
      `mcp-sunset dashboard: reading ${redactStoreLocation(config.db)} (no proxy here; sidecars write the counts)`,
      `  dashboard: ${api}/`,
      `  health:  ${api}/healthz    metrics: ${api}/metrics`,
      `  alerts:  ${config.alerts.scheduled ? `evaluated here on ${config.alerts.schedule}` : 'not scheduled here (--no-alerts)'}`,
      '  stop with Ctrl-C',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await dashboard.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
