import cron from 'node-cron';
import type { Logger } from '../lib/create-logger.js';
import type { AlertRunner } from './run-alerts.js';

export interface ScheduleAlertsOptions {
  /** node-cron expression (5 or 6 fields), read in UTC like every other time here. */
  expression: string;
  runner: AlertRunner;
  logger: Logger;
}

/**
 * Runs the alert rules on a cron schedule; answers a function that stops the schedule and
 * closes the runner. Failures are logged and the schedule keeps going: alerting must never take
 * the sidecar down with it.
 */
export function scheduleAlerts(options: ScheduleAlertsOptions): () => Promise<void> {
  const { runner, logger } = options;
  if (!cron.validate(options.expression)) {
    // Config validation does not know cron syntax; refusing to start over it would stop the metering too.
    logger.error({ setting: 'alerts.schedule', expression: options.expression }, 'invalid cron expression; alerts run only through POST /api/v1/alerts/evaluate');
    return () => runner.close();
  }
  const tick = async () => {
    if (runner.busy) {
      logger.warn('the previous alert run is still delivering; skipping this one');
      return;
    }
    try {
      const run = await runner.run();
      logger.debug({ transitions: run.transitions.length }, 'alert rules evaluated');
    } catch (error) {
      logger.error({ err: error }, 'alert run failed; will retry on schedule');
    }
  };
  const task = cron.schedule(options.expression, tick, {
    name: 'mcp-sunset-alerts',
    timezone: 'UTC',
    logger: {
      info: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
      error: (message, err) => logger.error({ err: err ?? message }, 'alert schedule error'),
      debug: (message) => logger.debug(message),
    },
  });
  return async () => {
    await task.destroy();
    await runner.close();
  };
}
