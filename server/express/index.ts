/**
 * `mcp-sunset/express`: metering and enforcement inside an Express app, in front of its MCP handler.
 *
 *   const metered = meter({ db: 'mcp-sunset.db' });
 *   app.use('/mcp', metered);
 *   …
 *   await metered.close(); // on shutdown: the last counts are written
 */
export { meter, type MeterMiddleware } from './meter.js';
export { servedBy } from './served-by.js';
export type { MeterOptions, MeterSettings } from './resolve-meter-options.js';
export type { DeclaredEra } from '../protocol/declare-era.js';
export type { FinalFlush } from '../metering/create-metering.js';
export type { PolicyHealth } from '../metering/create-policy-refresher.js';
export { ConfigError } from '../config/load-config.js';
