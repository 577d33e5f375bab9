import type { Config } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';
import { isPostgresLocation } from '../store/is-postgres-location.js';

/** Hosts a socket binds to that name no one address: another node cannot reach this one by them. */
const UNSPECIFIED = new Set(['0.0.0.0', '::', '[::]', '[::0]', '::0', '*', '']);

/**
 * A bridge on a fleet (nodes sharing a Postgres store) passes nodes requests only another node can
 * act on, at the URL each node puts in the sessions and channels it opens. Without `bridge.nodeUrl`
 * that is the listen address, and `0.0.0.0` (every container's) reaches no node but the sender: a
 * ConfigError naming the setting, so the node stops before it hands out URLs that lead nowhere.
 */
export function checkBridgeNodeUrl(config: Pick<Config, 'bridge' | 'listen' | 'db'>): void {
  if (!config.bridge.enabled || config.bridge.nodeUrl !== undefined || !isPostgresLocation(config.db)) return;
  const host = config.listen.slice(0, config.listen.lastIndexOf(':'));
  if (!UNSPECIFIED.has(host)) return;
  throw new ConfigError(`bridge.nodeUrl: required by --bridge on a fleet store when listening on ${config.listen}; set MCP_SUNSET_BRIDGE_NODE_URL or bridge.nodeUrl to the URL the other nodes reach this one at`);
}
