import { createHmac } from 'node:crypto';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';

/** Names the token format, so a later one can be told apart and an unrelated id is refused at once. */
export const BRIDGE_TOKEN_PREFIX = 'mss1';

/**
 * The longest session id sealed. It travels in a header on every request, and Node refuses a head
 * larger than 16 KiB; a client whose capabilities would not fit is refused at `initialize` instead.
 */
export const MAX_BRIDGE_TOKEN_CHARS = 6_144;

/** The signed part of a token: format, key and payload, so none can be swapped without breaking the MAC. */
export function bridgeTokenMac(secret: Buffer, keyId: string, payload: string): string {
  return createHmac('sha256', secret).update(`${BRIDGE_TOKEN_PREFIX}.${keyId}.${payload}`).digest('base64url');
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
    JSON.stringify({ i: session.id, v: session.version, c: session.clientCapabilities, n: session.clientInfo, t: session.issuedAt, e: session.expiresAt }),
  ).toString('base64url');
  const token = `${BRIDGE_TOKEN_PREFIX}.${id}.${payload}.${bridgeTokenMac(secret, id, payload)}`;
  return token.length > MAX_BRIDGE_TOKEN_CHARS ? { ok: false, reason: 'too-large' } : { ok: true, token };
}
