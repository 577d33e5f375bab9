import cron from 'node-cron';
import type { Logger } from '../lib/create-logger.js';
import type { DigestSender } from './run-digest.js';

export interface ScheduleDigestOptions {
  /** node-cron expression, read in `timeZone`. */
  expression: string;
  timeZone: string;
  sender: DigestSender;
  logger: Logger;
}

export interface DigestSchedule {
  /** When it next fires, or null when it never will. */
  nextRun(): number | null;
  /** Stops the schedule and closes the sender. */
  stop(): Promise<void>;
}

/**
 * Sends the digest on a cron schedule, keyed by the instant the schedule names rather than the
 * moment the tick ran, so every node sharing the store claims the same digest and one sends it.
 * Failures are logged and the schedule keeps going.
 */
export function scheduleDigest(options: ScheduleDigestOptions): DigestSchedule {
  const { sender, logger } = options;
  const task = cron.schedule(
    options.expression,
    async (context) => {
      try {
        const result = await sender.send({ kind: 'scheduled', scheduledFor: context.date.getTime() });
        if (result.sent) logger.info({ digest: result.digest.id, status: result.digest.status }, 'weekly digest sent');
        else logger.debug({ key: result.key }, 'weekly digest already sent by another node');
      } catch (error) {
        logger.error({ err: error }, 'weekly digest failed; this tick sends none, the next one tries again');
      }
    },
    {
      name: 'mcp-sunset-digest',
      timezone: options.timeZone,
      logger: {
        info: (message) => logger.debug(message),
        warn: (message) => logger.warn(message),
        error: (message, err) => logger.error({ err: err ?? message }, 'digest schedule error'),
        debug: (message) => logger.debug(message),
      },
    },
  );
  return {
    nextRun: () => task.getNextRun()?.getTime() ?? null,
    async stop() {
      await task.destroy();
      await sender.close();
    },
  };
}
