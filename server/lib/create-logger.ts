import { pino, type Logger } from 'pino';
import { findStoreSecrets } from './find-store-secrets.js';
import { redactStoreSecrets } from './redact-store-secrets.js';

export type { Logger };

/**
 * JSON logs on stderr, so command output on stdout stays clean for pipes. Given the store location,
 * every line is written with its secrets masked, whichever field (an error from any layer) carries them.
 */
export function createLogger(level: string, storeLocation?: string): Logger {
  const secret = storeLocation !== undefined && findStoreSecrets(storeLocation).length > 0;
  const hooks = secret ? { hooks: { streamWrite: (line: string) => redactStoreSecrets(line, storeLocation) } } : {};
  return pino({ level, base: { name: 'mcp-sunset' }, ...hooks }, pino.destination(2));
}
