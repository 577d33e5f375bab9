import { bucketStart } from '../lib/time-bucket.js';
import { isLegacyWorkServed } from '../protocol/served.js';
import { classifyRequest } from '../protocol/work-request.js';
import type { TallyCell } from '../tally/tally-cell.js';
import type { ShareDayRow } from './records/share-day-row.js';

/** A share rollup row, as a plain object type: a prepared statement takes it as its named parameters. */
export type ShareValues = { [K in keyof ShareDayRow]: ShareDayRow[K] };

/** A row of the served-legacy-work rollup: one caller's requests on one UTC day and node. */
export type LegacyCallerValues = {
  day: number;
  node: string;
  integration: string;
  count: number;
};

/**
 * What one cell adds to the rollups of its UTC day: a share row for a client request, and its caller's
 * row when the request was legacy work served. Null for anything else (a notification, a response):
 * the share counts requests only.
 */
export function rollupValues(cell: TallyCell): { share: ShareValues; legacyCaller: LegacyCallerValues | null } | null {
  const requestClass = classifyRequest(cell.kind, cell.method);
  if (requestClass === null) return null;
  const day = bucketStart(cell.minute, 'day');
  return {
    share: { day, node: cell.node, era: cell.era, transport: cell.transport, version: cell.version, outcome: cell.outcome, requestClass, count: cell.count },
    legacyCaller: isLegacyWorkServed(cell) ? { day, node: cell.node, integration: cell.integration, count: cell.count } : null,
  };
}
