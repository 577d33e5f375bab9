import { createHash, createHmac } from 'node:crypto';

/** The prefix of a caller an OAuth token named, as `mtls:` is of a certificate's. */
export const OAUTH_KEY_PREFIX = 'oauth:';
/** Longest caller key kept whole; labels past 128 characters would be counted as `other`. */
const MAX_KEY_CHARS = 128;

/**
 * The caller key of an OAuth client: `oauth:<client_id>`, the client id as the token carries it (a
 * Client ID Metadata Document's URL included). One too long to count under is cut and closed with
 * a digest of the whole id, so two long ids never share a key.
 */
export function oauthCallerKey(clientId: string): string {
  const key = `${OAUTH_KEY_PREFIX}${clientId}`;
  if (key.length <= MAX_KEY_CHARS) return key;
  const digest = createHash('sha256').update(clientId).digest('hex').slice(0, 16);
  return `${key.slice(0, MAX_KEY_CHARS - digest.length - 1)}~${digest}`;
}

/**
 * A person as the store may keep them: a keyed digest of the issuer and subject under the install's
 * secret, so the raw `sub` is never written and digests from different installs cannot be joined.
 */
export function subjectDigest(secret: string, issuer: string, subject: string): string {
  return createHmac('sha256', secret).update(`subject\n${issuer}\n${subject}`).digest('base64url').slice(0, 22);
}

/**
 * The client id an OAuth caller key carries whole; undefined for another mechanism's key, and for a
 * key cut to fit (it ends in `~` and a digest), whose id is no longer there to be read.
 */
export function clientIdOfCallerKey(key: string): string | undefined {
  if (!key.startsWith(OAUTH_KEY_PREFIX)) return undefined;
  if (key.length >= MAX_KEY_CHARS && /~[0-9a-f]{16}$/.test(key)) return undefined;
  const clientId = key.slice(OAUTH_KEY_PREFIX.length);
  return clientId === '' ? undefined : clientId;
}
