export interface SecretSpan {
  start: number;
  end: number;
}

const URL_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;
/** `password=…` (or `sslpassword=…`) as a query parameter or a libpq `key=value` word; a quoted value may hold spaces. */
const PASSWORD_PARAMETER = /(?:^|[?&;\s])[a-z_]*password\s*=\s*('(?:[^'\\]|\\.)*'?|[^&;#\s]*)/gi;

/**
 * Where a store location carries secrets: a URL's password and the value of every `password=`
 * parameter, as spans of the string. The userinfo ends at the last `@`, since a password may hold an
 * unencoded `@`, `/` or `#`: on an ambiguous location more is masked, never less. A path has none.
 */
export function findStoreSecrets(location: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const scheme = URL_FORM.exec(location);
  if (scheme !== null) {
    const authority = scheme[0].length;
    const at = location.lastIndexOf('@');
    const colon = at < authority ? -1 : location.indexOf(':', authority);
    if (colon >= 0 && colon < at) spans.push({ start: colon + 1, end: at });
  }
  for (const match of location.matchAll(PASSWORD_PARAMETER)) {
    const value = match[1]!;
    const end = match.index + match[0].length;
    const span = { start: end - value.length, end };
    if (value.length > 0 && !spans.some((s) => s.start <= span.start && span.end <= s.end)) spans.push(span);
  }
  return spans.sort((a, b) => a.start - b.start);
}
