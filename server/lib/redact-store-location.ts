import { findStoreSecrets } from './find-store-secrets.js';

/**
 * The store location as it may be shown on /healthz, in logs and in errors: a URL's password and
 * every `password=` value replaced by `***`, everything else (a file path whole) as it is.
 */
export function redactStoreLocation(location: string): string {
  let shown = location;
  for (const span of findStoreSecrets(location).reverse()) shown = `${shown.slice(0, span.start)}***${shown.slice(span.end)}`;
  return shown;
}
