import type { Logger } from '../lib/create-logger.js';
import type { ClientNamesRun } from './refresh-client-names.js';

export const CLIENT_NAMES_EVERY_MS = 3_600_000;

export interface ClientNamesSchedule {
  /** Runs now, after any run under way (never two at once); rejects when the run fails or the schedule has stopped. */
  runNow(): Promise<ClientNamesRun>;
  /** Stops the schedule and ends a run under way; answers when it has ended. */
  stop(): Promise<void>;
}

/**
 * Runs the client-name refresh once at start and then every hour. A tick that finds a run under way
 * is skipped, and a failed run is logged, never thrown: naming callers must never take the API down.
 */
export function scheduleClientNames(run: (signal: AbortSignal) => Promise<ClientNamesRun>, logger: Logger, everyMs: number = CLIENT_NAMES_EVERY_MS): ClientNamesSchedule {
  let chain: Promise<unknown> = Promise.resolve();
  let pending = 0;
  let stopped = false;
  // Stopping ends the run under way at once rather than after the rest of its fetches: shutdown must not wait on clients' servers.
  const stopping = new AbortController();

  const enqueue = (): Promise<ClientNamesRun> => {
    pending += 1;
    const result = chain.then(() => (stopped ? Promise.reject(new Error('the client-name schedule has stopped')) : run(stopping.signal))).finally(() => {
      pending -= 1;
    });
    chain = result.catch(() => undefined);
    return result;
  };
  const tick = () => {
    if (stopped) return;
    if (pending > 0) return logger.warn('the previous client-name run is still going; skipping this one');
    enqueue().catch((error: unknown) => {
      if (!stopped) logger.error({ err: error }, 'client-name run failed; will retry on schedule');
    });
  };

  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    runNow: enqueue,
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort();
      await chain;
    },
  };
}
