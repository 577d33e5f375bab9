/** The database schema (drizzle); drizzle-kit reads this barrel to generate migrations. */
export * from './alerts.js';
export * from './integrations.js';
export * from './plans.js';
export * from './probes.js';
export * from './rollups.js';
export * from './settings.js';
export * from './traffic.js';
export * from './spool.js';
export * from './sidecar-nodes.js';
export * from './tally-streams.js';
export * from './bridge-revocations.js';
export * from './plan-pauses.js';
export * from './audit-events.js';
export * from './caller-notices.js';
export * from './digests.js';
export * from './people.js';
export * from './caller-aliases.js';
