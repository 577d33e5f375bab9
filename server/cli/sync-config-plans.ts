import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import type { Store } from '../store/store.js';
import { validateDeclaredPlans } from './validate-declared-plans.js';

/**
 * Brings the plans declared in the config file into the store; without a `plans` setting it leaves them be. A bad declaration throws (the file is
 * wrong and start-up says so); a store that cannot take the sync is logged, and traffic still flows.
 */
export async function syncConfigPlans(store: Store, config: Pick<Config, 'plans'>, logger: Logger, now: number): Promise<void> {
  if (config.plans === undefined) return;
  const declared = validateDeclaredPlans(config.plans);
  try {
    const { inserted, updated, archived, restored } = await store.syncDeclaredPlans(declared, now);
    if (inserted.length + updated.length + archived.length + restored.length > 0) logger.info({ inserted, updated, archived, restored }, 'plans from the config file synced');
  } catch (error) {
    logger.error({ err: error }, 'plans from the config file could not be synced; the stored plans stay as they were');
  }
}
