import type { IntegrationSighting } from '../tally/tally-cell.js';

/** The integration columns a caller's sighting writes, alike in both dialects' integrations tables. */
export type SightingValues = {
  key: string;
  source: string;
  firstSeen: number;
  lastSeen: number;
  lastLegacySeen: number | null;
  clientInfoName: string | null;
  clientInfoVersion: string | null;
};

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
