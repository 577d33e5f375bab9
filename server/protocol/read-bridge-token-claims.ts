/**
 * Reads which bridge session a session token names, and until when it is honoured, without the key.
 * Pure; never throws. The payload of `mss1.<key id>.<payload>.<mac>` is plain base64url JSON (the
 * client holds all of it anyway): only checking the MAC needs the key. Nothing read here is
 * authenticated, so it may name a session to refuse, never one to serve.
 */
import { isRecord } from './is-record.js';

/** Names the token format, so a later one can be told apart and an unrelated id is refused at once. */
export const BRIDGE_TOKEN_PREFIX = 'mss1';

/**
 * The longest session id sealed. It travels in a header on every request, and Node refuses a head
 * larger than 16 KiB; a client whose capabilities would not fit is refused at `initialize` instead.
 */
export const MAX_BRIDGE_TOKEN_CHARS = 6_144;

/** A session's own id, as the bridge makes it (16 random bytes, base64url); longer ones are not the bridge's. */
export const BRIDGE_SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface BridgeTokenClaims {
  sessionId: string;
  /** Epoch ms from which the token is no longer honoured. */
  expiresAt: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeBase64url(text: string): string | undefined {
  try {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
    return utf8.decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The session id and expiry a token carries; undefined for anything that is not a bridge token. */
export function readBridgeTokenClaims(token: string): BridgeTokenClaims | undefined {
  if (token.length > MAX_BRIDGE_TOKEN_CHARS) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== BRIDGE_TOKEN_PREFIX || !parts.slice(1).every((part) => BASE64URL.test(part))) return undefined;
  const json = decodeBase64url(parts[2]!);
  if (json === undefined) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isRecord(payload)) return undefined;
  const { i, e } = payload;
  // Whole milliseconds: the stores keep the expiry as an integer.
  if (typeof i !== 'string' || !BRIDGE_SESSION_ID.test(i) || typeof e !== 'number' || !Number.isSafeInteger(e) || e < 0) return undefined;
  return { sessionId: i, expiresAt: e };
}

/** Names the HTTP+SSE channel tokens the bridge puts in its message endpoint URLs (`/messages?bridge=mcs1.…`). */
export const BRIDGE_CHANNEL_PREFIX = 'mcs1';

/**
 * The session id an HTTP+SSE channel token names: a channel's session has the channel's id, so an
 * operator can revoke it by the token in the URL its client posts to. Read without the key, like a
 * session token; undefined for anything that is not a channel token. Never throws.
 */
export function readChannelTokenSessionId(token: string): string | undefined {
  if (token.length > 2048) return undefined;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== BRIDGE_CHANNEL_PREFIX || !parts.slice(1).every((part) => BASE64URL.test(part))) return undefined;
  return BRIDGE_SESSION_ID.test(parts[2]!) ? parts[2] : undefined;
}
