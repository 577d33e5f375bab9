import { META_SERVER_INFO } from './versions.js';
import { isRecord } from './is-record.js';

/**
 * The legacy versions the bridge answers `initialize` at, newest first: the revisions whose
 * requests it can make self-contained (2024-11-05 is HTTP+SSE's).
 */
export const BRIDGE_LEGACY_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

export interface LegacyInitializeResult {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: Record<string, unknown> & { name: string; version: string };
  instructions?: string;
}

/**
 * A legacy `initialize` answered from the modern server's `server/discover` result: the version
 * the client asked for when the bridge speaks it, else the newest it does (the client then decides
 * whether it can go on, as the legacy lifecycle has it); the server's capabilities and instructions
 * as discovered; its serverInfo from the result's `_meta`. Undefined when `discover` is not a
 * DiscoverResult, so the caller answers an error instead of inventing a server. Pure.
 */
export function legacyInitializeResult(requestedVersion: unknown, discover: unknown): LegacyInitializeResult | undefined {
  if (!isRecord(discover) || !Array.isArray(discover.supportedVersions) || !isRecord(discover.capabilities)) return undefined;
  const protocolVersion = typeof requestedVersion === 'string' && BRIDGE_LEGACY_VERSIONS.includes(requestedVersion) ? requestedVersion : BRIDGE_LEGACY_VERSIONS[0]!;
  const declared = isRecord(discover._meta) ? discover._meta[META_SERVER_INFO] : undefined;
  // serverInfo is required in a legacy result but only recommended in a modern one: a server that
  // leaves it out is shown as unknown rather than under a name it never gave.
  const serverInfo = isRecord(declared) && typeof declared.name === 'string' && typeof declared.version === 'string'
    ? (declared as LegacyInitializeResult['serverInfo'])
    : { name: 'unknown', version: 'unknown' };
  return {
    protocolVersion,
    capabilities: discover.capabilities,
    serverInfo,
    ...(typeof discover.instructions === 'string' ? { instructions: discover.instructions } : {}),
  };
}
