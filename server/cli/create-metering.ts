import type { Config } from '../config/config-schema.js';
import type { Logger } from '../lib/create-logger.js';
import { createMetering as createSharedMetering, type Metering, type MeteringGaugeSources, type MeteringSidecar } from '../metering/create-metering.js';
import { syncConfigPlans } from './sync-config-plans.js';

export type { FinalFlush, Metering, MeteringGaugeSources, MeteringSidecar } from '../metering/create-metering.js';

/** The counting pipeline as the CLI runs it: the plans declared in the config file are synced into the store first. */
export function createMetering(config: Readonly<Config>, logger: Logger, now: () => number, gauges: MeteringGaugeSources, sidecar: MeteringSidecar): Promise<Metering> {
  return createSharedMetering(config, logger, now, gauges, sidecar, (store) => syncConfigPlans(store, config, logger, now()));
}
