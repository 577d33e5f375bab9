import type { Logger } from '../lib/create-logger.js';
import type { Store } from '../store/store.js';
import { selectClientNamesDue } from './select-client-names-due.js';

/** Documents fetched per run at most: a fleet of new callers is named over a few hours, not in one burst. */
export const CLIENT_NAMES_PER_RUN = 50;

/**
 * Where names come from: which callers carry a Client ID Metadata Document URL, and a guarded fetch
 * of one that never throws (the identity layer's, given by the composition root).
 */
export interface ClientNameSource {
  urlOf(key: string): string | undefined;
  fetch(url: string, signal?: AbortSignal): Promise<{ kind: 'named'; name: string } | { kind: 'failed'; reason: string }>;
}

export interface ClientNamesRefreshOptions {
  store: Store;
  source: ClientNameSource;
  now: () => number;
  /** How old a name may grow before it is fetched again. */
  refreshMs: number;
  maxPerRun?: number;
  logger: Logger;
  /** Ends the run early (at shutdown): the fetch under way is abandoned and nothing more is stored. */
  signal?: AbortSignal;
}

/** What one run did: documents fetched, names got, fetches that failed, and callers due but left for the next run. */
export interface ClientNamesRun {
  fetched: number;
  named: number;
  failed: number;
  left: number;
}

/**
 * Fetches the due callers' documents one at a time and stores each outcome: the name, or for a
 * failure only the time (an earlier name stays). One at a time, so a run never opens more than one
 * connection to clients' servers, whatever they do.
 */
export async function refreshClientNames(options: ClientNamesRefreshOptions): Promise<ClientNamesRun> {
  const { store, source, logger } = options;
  const max = options.maxPerRun ?? CLIENT_NAMES_PER_RUN;
  const all = selectClientNamesDue(await store.listIntegrations(), (key) => source.urlOf(key), options.now(), options.refreshMs, Number.POSITIVE_INFINITY);
  const due = all.slice(0, max);
  const run: ClientNamesRun = { fetched: 0, named: 0, failed: 0, left: all.length };
  const stopped = () => options.signal?.aborted === true;
  for (const { key, url } of due) {
    if (stopped()) break;
    const answer = await source.fetch(url, options.signal);
    // Stopped mid-fetch: that says nothing about the document, so nothing is recorded.
    if (stopped()) break;
    run.fetched += 1;
    run.left -= 1;
    if (answer.kind === 'named') run.named += 1;
    else {
      run.failed += 1;
      logger.debug({ caller: key, reason: answer.reason }, 'client name not fetched');
    }
    await store.setIntegrationClientName(key, answer.kind === 'named' ? answer.name : null, options.now());
  }
  if (run.fetched > 0) logger.info(run, 'client names fetched');
  return run;
}
