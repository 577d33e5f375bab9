import { timingSafeEqual } from 'node:crypto';
import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';
import { BRIDGE_TOKEN_PREFIX, MAX_BRIDGE_TOKEN_CHARS, bridgeTokenMac, credentialMac } from './seal-bridge-session.js';
import { isRecord } from '../protocol/is-record.js';

/**
 * Why a session id is not honoured. All of them end the session for the client (it must open a
 * new one); the reason is for the operator's logs and counts.
 * - `malformed`: not a bridge token at all.
 * - `unknown-key`: sealed with a key this node does not hold (another deployment's, or rotated out long ago).
 * - `key-retired`: sealed with a previous key whose grace period is over.
 * - `forged`: the MAC does not match: changed, or made up.
 * - `expired`: genuine, but past its expiry.
 * - `other-credential`: genuine, but presented with another credential (or none) than the one that opened it.
 */
export type OpenFailure = 'malformed' | 'unknown-key' | 'key-retired' | 'forged' | 'expired' | 'other-credential';

export type OpenResult = { ok: true; session: BridgeSession; /** Sealed with a previous key: reseal it with the current one. */ stale: boolean } | { ok: false; reason: OpenFailure };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function sessionOf(payload: string): BridgeSession | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { i, v, c, n, t, e, h, f } = value;
  if (typeof i !== 'string' || typeof v !== 'string' || !isRecord(c) || !isRecord(n)) return undefined;
  if (typeof n.name !== 'string' || typeof n.version !== 'string') return undefined;
  if (typeof t !== 'number' || typeof e !== 'number' || !Number.isFinite(t) || !Number.isFinite(e)) return undefined;
  if (h !== undefined && typeof h !== 'string') return undefined;
  if (f !== undefined && typeof f !== 'string') return undefined;
  return {
    id: i, version: v, clientCapabilities: c, clientInfo: n as BridgeSession['clientInfo'], issuedAt: t, expiresAt: e,
    ...(h === undefined ? {} : { home: h }),
    ...(f === undefined ? {} : { credential: f }),
  };
}

/**
 * Opens a session id the bridge sealed, checking its key, its MAC (in constant time) and its
 * expiry against `now`. Never throws: anything else a client sends answers a failure.
 * Revocation is the caller's: it holds the list of revoked session ids.
 * With `presented`, a session bound to a credential opens only with that credential (the
 * `Authorization` of the request, undefined for none); without it (counting, say) it is not checked.
 */
export function openBridgeSession(ring: BridgeKeyRing, token: string, now: number, presented?: { credential: string | undefined }): OpenResult {
  if (token.length > MAX_BRIDGE_TOKEN_CHARS) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== BRIDGE_TOKEN_PREFIX) return { ok: false, reason: 'malformed' };
  const [, keyId, payload, mac] = parts as [string, string, string, string];
  if (!BASE64URL.test(keyId) || !BASE64URL.test(payload) || !BASE64URL.test(mac)) return { ok: false, reason: 'malformed' };
  const key = ring.find(keyId);
  if (key === undefined) return { ok: false, reason: 'unknown-key' };
  const expected = Buffer.from(bridgeTokenMac(key.secret, keyId, payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' };
  // Only a genuine token says which key sealed it, so the grace period is checked after the MAC.
  if (key.acceptedUntil !== undefined && now > key.acceptedUntil) return { ok: false, reason: 'key-retired' };
  const session = sessionOf(payload);
  if (session === undefined) return { ok: false, reason: 'malformed' };
  if (now >= session.expiresAt) return { ok: false, reason: 'expired' };
  if (presented !== undefined && session.credential !== undefined && session.credential !== null) {
    const expectedCredential = Buffer.from(credentialMac(key.secret, presented.credential ?? null));
    const bound = Buffer.from(session.credential);
    if (bound.length !== expectedCredential.length || !timingSafeEqual(bound, expectedCredential)) return { ok: false, reason: 'other-credential' };
  }
  return { ok: true, session, stale: key !== ring.current };
}
