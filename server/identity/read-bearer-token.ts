const SCHEME = /^bearer[ \t]+([^ \t]+)/i;

/**
 * The token of an `Authorization: Bearer …` header, read as the SDK servers read it: the scheme in
 * any case, then the first word after it (anything after that word is not part of the token for
 * them either). Undefined for another scheme or no token. Pure.
 */
export function readBearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = SCHEME.exec(authorization);
  return match === null ? undefined : match[1];
}
