import { createHmac } from 'node:crypto';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';
import { BRIDGE_TOKEN_PREFIX, MAX_BRIDGE_TOKEN_CHARS } from '../protocol/read-bridge-token-claims.js';

// The format is the protocol's, so the API can read a token's session and expiry without the key.
export { BRIDGE_TOKEN_PREFIX, MAX_BRIDGE_TOKEN_CHARS };

/** The signed part of a token: format, key and payload, so none can be swapped without breaking the MAC. */
export function bridgeTokenMac(secret: Buffer, keyId: string, payload: string): string {
  return createHmac('sha256', secret).update(`${BRIDGE_TOKEN_PREFIX}.${keyId}.${payload}`).digest('base64url');
}

/** What a token keeps of the credential that opened its session: a MAC under the sealing key, never the credential. */
export function credentialMac(secret: Buffer, credential: string | null): string {
  return createHmac('sha256', secret).update(`credential\n${credential === null ? '-' : `+${credential}`}`).digest('base64url');
}

export type SealResult = { ok: true; token: string } | { ok: false; reason: 'too-large' };

/**
 * Seals a session into an `Mcp-Session-Id`: `mss1.<key id>.<payload>.<mac>`, all base64url, so it
 * is visible ASCII as the spec asks of a session id. The payload is readable by whoever holds the
 * token (the client already knows everything in it); the MAC keeps anyone from changing it.
 */
export function sealBridgeSession(ring: BridgeKeyRing, session: BridgeSession): SealResult {
  const { id, secret } = ring.current;
  const payload = Buffer.from(
    JSON.stringify({
      i: session.id, v: session.version, c: session.clientCapabilities, n: session.clientInfo, t: session.issuedAt, e: session.expiresAt,
      ...(session.home === undefined ? {} : { h: session.home }),
      ...(session.credential === undefined ? {} : { f: credentialMac(secret, session.credential) }),
    }),
  ).toString('base64url');
  const token = `${BRIDGE_TOKEN_PREFIX}.${id}.${payload}.${bridgeTokenMac(secret, id, payload)}`;
  return token.length > MAX_BRIDGE_TOKEN_CHARS ? { ok: false, reason: 'too-large' } : { ok: true, token };
}
