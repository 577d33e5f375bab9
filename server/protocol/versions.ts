/**
 * Version strings and the reserved keys that carry them. Pure constants and set membership:
 * an era is never decided by ordering version strings ("DRAFT-2026-v1" > "2026-07-28").
 */

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The first revision of the modern era: per-request `_meta`, `server/discover`, no handshake. */
export const FIRST_MODERN_VERSION = '2026-07-28';
/** The last revision of the initialize era, the one a current 2025 client offers. */
export const LATEST_LEGACY_VERSION = '2025-11-25';

export const HEADER = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  sessionId: 'mcp-session-id',
  lastEventId: 'last-event-id',
  contentType: 'content-type',
  accept: 'accept',
  authorization: 'authorization',
} as const;

/** The version a sessionless legacy request is assumed to speak when nothing names one. */
export const ASSUMED_SESSIONLESS_VERSION = '2025-03-26';

/**
 * Every version identifier that only the initialize-handshake era used, including pre-release
 * draft strings seen on the wire. A header naming one of these is a legacy claim; any other value
 * is a modern claim (the body still decides).
 */
export const LEGACY_VERSIONS: ReadonlySet<string> = new Set([
  '2024-10-07',
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  'DRAFT-2025-v1',
  'DRAFT-2025-v2',
  'DRAFT-2025-v3',
  'draft',
]);

/**
 * The revisions a server serves on the modern path. A policy judges a request modern only when
 * it names one of these (policy-shape.ts): a dual-era server answers any other `_meta` version on
 * its legacy path, or refuses it. A new revision is added here when the spec publishes it.
 */
export const MODERN_VERSIONS: ReadonlySet<string> = new Set([FIRST_MODERN_VERSION]);

/** True when the string names a revision of the modern era. */
export function isModernVersion(version: string): boolean {
  return MODERN_VERSIONS.has(version);
}

/** True when the string names a version of the legacy era. */
export function isLegacyVersion(version: string): boolean {
  return LEGACY_VERSIONS.has(version);
}

/**
 * True for a revision either era published (or a draft string the SDKs sent): a value counting
 * never folds into `other`, however many unknown versions arrive (design invariant 11).
 */
export function isKnownVersion(version: string): boolean {
  return MODERN_VERSIONS.has(version) || LEGACY_VERSIONS.has(version);
}
