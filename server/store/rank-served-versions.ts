import { NO_VERSION, OVERFLOW_LABEL } from '../tally/tally-cell.js';

/**
 * The protocol versions of the share rows, most served first (ties by name), without the labels that
 * name no version: requests that carried none, and the tally's overflow.
 */
export function rankServedVersions(rows: readonly { version: string; count: number }[]): string[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (row.version === NO_VERSION || row.version === OVERFLOW_LABEL) continue;
    totals.set(row.version, (totals.get(row.version) ?? 0) + row.count);
  }
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([version]) => version);
}
