const SCHEME = /^bearer[ \t]+([^ \t]+)[ \t]*(.*)$/is;

/**
 * The token of an `Authorization: Bearer …` header: the scheme in any case, then the token.
 * Servers differ on a value with more words after the token: the JS SDK's middleware serves the
 * first word, the Python SDK's takes everything after `Bearer `. Neither reading can be trusted to
 * be the server's, so such a value is its own token, the whole rest: a caller that names no
 * exemption, no OAuth application and no known caller, yet is never anonymous.
 * Undefined for another scheme or no token. Pure.
 */
export function readBearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = SCHEME.exec(authorization);
  if (match === null) return undefined;
  const rest = match[2]!.trimEnd();
  return rest === '' ? match[1] : `${match[1]} ${rest}`;
}
