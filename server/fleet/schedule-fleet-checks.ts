import cron from 'node-cron';
import type { Logger } from '../lib/create-logger.js';

/**
 * Runs fleet checks on a cron schedule (UTC); answers a function that stops it. A tick that finds
 * the previous check still running is skipped, and a failing check is logged, never thrown.
 */
export function scheduleFleetChecks(expression: string, check: () => Promise<unknown>, logger: Logger): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const task = cron.schedule(
    expression,
    async () => {
      if (running !== undefined) return logger.warn('the previous fleet check is still running; skipping this one');
      running = check().catch((error: unknown) => logger.error({ err: error }, 'fleet check failed; will retry on schedule'));
      await running;
      running = undefined;
    },
    { name: 'mcp-sunset-fleet', timezone: 'UTC' },
  );
  return async () => {
    await task.destroy();
    await running;
  };
}
