/**
 * Recognises the HTTP 400 bodies that deployed legacy servers send to a request without a session.
 * Pure. Matching is on the whole message, never a substring, so an
 * arbitrary -32000 does not qualify; the version list must name only historical versions.
 */
import { LEGACY_BAD_REQUEST } from '../../protocol/error-codes.js';
import { HEADER, isLegacyVersion } from '../../protocol/versions.js';

export type LegacyRejection =
  /** "No valid session ID provided", "Mcp-Session-Id header is required", "Server not initialized". */
  | { kind: 'missing-session'; message: string }
  /** "Unsupported protocol version: X (supported versions: …)" listing only legacy versions. */
  | { kind: 'legacy-versions'; message: string; versions: string[] }
  /** The same sentence listing a modern, future or unknown version: contradictory, not evidence. */
  | { kind: 'contradictory-versions'; message: string; versions: string[] };

// Compared lower-cased: SDKs spell the session header in several cases.
const MISSING_SESSION_MESSAGES: readonly string[] = [
  'bad request: no valid session id provided',
  `bad request: ${HEADER.sessionId} header is required`,
  'bad request: server not initialized',
];

const UNSUPPORTED_VERSION = /^Bad Request: Unsupported protocol version: (\S+) \(supported versions: ([^()]*)\)$/;

/**
 * Reads a JSON-RPC error answered with HTTP 400 and a null (or absent) id. Undefined when the
 * body is not one of the recognised legacy prevalidation rejections.
 */
export function recogniseLegacyRejection(code: number | undefined, message: string): LegacyRejection | undefined {
  if (code !== LEGACY_BAD_REQUEST) return undefined;
  const trimmed = message.trim().replace(/\.$/, '');
  if (MISSING_SESSION_MESSAGES.includes(trimmed.toLowerCase())) return { kind: 'missing-session', message: trimmed };
  const match = UNSUPPORTED_VERSION.exec(trimmed);
  if (!match) return undefined;
  const versions = (match[2] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (versions.length > 0 && versions.every(isLegacyVersion)) return { kind: 'legacy-versions', message: trimmed, versions };
  return { kind: 'contradictory-versions', message: trimmed, versions };
}
