import { findStoreSecrets } from './find-store-secrets.js';

/**
 * The store location as it may be shown on /healthz, in logs and in errors: a URL's password and
 * every `password=` value replaced by `***`, everything else (a file path whole) as it is. A secret
 * that also appears elsewhere in the location (as the user name, say) is masked there too.
 */
export function redactStoreLocation(location: string): string {
  const spans = findStoreSecrets(location);
  let shown = location;
  for (const span of [...spans].reverse()) shown = `${shown.slice(0, span.start)}***${shown.slice(span.end)}`;
  const secrets = [...new Set(spans.map((span) => location.slice(span.start, span.end)))].sort((a, b) => b.length - a.length);
  for (const secret of secrets) shown = shown.split(secret).join('***');
  return shown;
}
