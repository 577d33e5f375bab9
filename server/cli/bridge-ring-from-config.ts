import { BridgeKeyRing } from '../bridge/bridge-key-ring.js';
import type { Config } from '../config/config-schema.js';
import { ConfigError } from '../config/load-config.js';

/**
 * The bridge's key ring from the settings; a ConfigError naming the setting when the bridge is on
 * without a key, so `serve --bridge` stops before it listens rather than mint sessions no other
 * node could open. The schema has already checked each key's form and length.
 */
export function bridgeRingFromConfig(bridge: Config['bridge']): BridgeKeyRing {
  if (bridge.key === undefined) throw new ConfigError('bridge.key: required by --bridge; set MCP_SUNSET_BRIDGE_KEY (at least 64 hex digits, the same on every node) or bridge.key in the config file');
  const previous = bridge.previousKeys.map(({ key, acceptedUntil }) => ({ secret: Buffer.from(key, 'hex'), acceptedUntil: Date.parse(acceptedUntil) }));
  return new BridgeKeyRing(Buffer.from(bridge.key, 'hex'), previous);
}
