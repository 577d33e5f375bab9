import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import type { Store } from '../store/sqlite/open-database.js';
import { syncDeclaredPlans } from '../store/sqlite/sync-declared-plans.js';
import { validateDeclaredPlans } from './validate-declared-plans.js';

/**
 * Brings the plans declared in the config file into the store; without a `plans` setting it leaves them be. A bad declaration throws (the file is
 * wrong and start-up says so); a store that cannot take the sync is logged, and traffic still flows.
 */
export function syncConfigPlans(store: Store, config: Pick<Config, 'plans'>, logger: Logger, now: number): void {
  if (config.plans === undefined) return;
  const declared = validateDeclaredPlans(config.plans);
  try {
    const { inserted, updated, archived, restored } = syncDeclaredPlans(store.db, declared, now);
    if (inserted.length + updated.length + archived.length + restored.length > 0) logger.info({ inserted, updated, archived, restored }, 'plans from the config file synced');
  } catch (error) {
    logger.error({ err: error }, 'plans from the config file could not be synced; the stored plans stay as they were');
  }
}
