import { findStoreSecrets } from './find-store-secrets.js';
import { redactStoreLocation } from './redact-store-location.js';

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Any text (an error message, a stack, a derived path) with the store location's secrets masked:
 * the location itself shown redacted, then every remaining copy of a secret, as written, percent-decoded
 * unquoted or JSON-escaped, since a driver may quote the password it was given in any of those forms.
 */
export function redactStoreSecrets(text: string, location: string): string {
  const secrets = findStoreSecrets(location)
    .map((span) => location.slice(span.start, span.end))
    .flatMap((raw) => [raw, decoded(raw), raw.replace(/^'(.*)'$/s, '$1').replace(/\\(.)/g, '$1')])
    // As a JSON string holds it, for log lines.
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
    .filter((secret) => secret.length > 0);
  let shown = secrets.length === 0 ? text : text.split(location).join(redactStoreLocation(location));
  // Longest first, so a secret that contains another is masked whole.
  for (const secret of [...new Set(secrets)].sort((a, b) => b.length - a.length)) shown = shown.split(secret).join('***');
  return shown;
}
