import type { IntegrationRecord } from '../store/records/integration-record.js';

/** A fetch that brought no name (and left none from before) is tried again after this long. */
export const CLIENT_NAME_RETRY_MS = 3_600_000;

/** A caller whose Client ID Metadata Document is due to be fetched, and the URL it is at. */
export interface ClientNameDue {
  key: string;
  url: string;
}

/**
 * The OAuth callers whose client id is a Client ID Metadata Document URL (`urlOf`) and whose name is
 * due: never fetched; fetched with no name got (a failure), an hour ago or more; or holding a name
 * fetched `refreshMs` ago or more. The two stored columns say which: a failure records only the time,
 * so a name it leaves in place waits `refreshMs` again rather than being asked for every hour.
 * Never fetched first, then the longest waiting, at most `limit`. Pure.
 */
export function selectClientNamesDue(
  records: readonly IntegrationRecord[],
  urlOf: (key: string) => string | undefined,
  now: number,
  refreshMs: number,
  limit: number,
): ClientNameDue[] {
  const due = records.flatMap((record) => {
    if (record.source !== 'oauth') return [];
    const url = urlOf(record.key);
    if (url === undefined) return [];
    const at = record.clientNameAt;
    if (at !== null && now - at < (record.clientName === null ? CLIENT_NAME_RETRY_MS : refreshMs)) return [];
    return [{ key: record.key, url, at: at ?? Number.NEGATIVE_INFINITY }];
  });
  due.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return due.slice(0, limit).map(({ key, url }) => ({ key, url }));
}
