import type { Logger } from '../lib/create-logger.js';
import { redactStoreError } from '../lib/redact-store-error.js';
import { redactStoreLocation } from '../lib/redact-store-location.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';

/**
 * Opens the store, or answers why it could not, with the location's secrets masked: a process that
 * serves traffic or pages must keep running without its database, and say so.
 */
export async function openStoreSafely(location: string, logger: Logger, consequence: string): Promise<{ store: Store | undefined; error: string | undefined }> {
  try {
    return { store: await openStore(location), error: undefined };
  } catch (error) {
    const safe = redactStoreError(error, location);
    logger.error({ err: safe, db: redactStoreLocation(location) }, `database unavailable; ${consequence}`);
    return { store: undefined, error: safe.message };
  }
}
