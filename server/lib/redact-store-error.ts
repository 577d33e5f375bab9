import { redactStoreSecrets } from './redact-store-secrets.js';

/**
 * An error safe to log, show or rethrow: message and stack with the store location's secrets masked,
 * its name and code kept. Whatever was thrown, an Error comes back.
 */
export function redactStoreError(error: unknown, location: string): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const safe = new Error(redactStoreSecrets(original.message, location));
  safe.name = original.name;
  safe.stack = original.stack === undefined ? undefined : redactStoreSecrets(original.stack, location);
  const code = (original as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(safe, { code });
  return safe;
}
