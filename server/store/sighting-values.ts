import type { IntegrationSighting } from '../tally/tally-cell.js';
import type { IntegrationRecord } from './records/integration-record.js';

/** The integration columns a caller's sighting writes, alike in both dialects' integrations tables. */
export type SightingValues = Pick<IntegrationRecord, 'key' | 'source' | 'firstSeen' | 'lastSeen' | 'lastLegacySeen' | 'clientInfoName' | 'clientInfoVersion'>;

/** A sighting as its caller's columns: what it did not see is null. */
export function sightingValues(sighting: IntegrationSighting): SightingValues {
  return {
    key: sighting.key,
    source: sighting.source,
    firstSeen: sighting.firstSeen,
    lastSeen: sighting.lastSeen,
    lastLegacySeen: sighting.lastLegacySeen ?? null,
    clientInfoName: sighting.clientInfo?.name ?? null,
    clientInfoVersion: sighting.clientInfo?.version ?? null,
  };
}
