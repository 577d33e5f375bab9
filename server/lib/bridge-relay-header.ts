/**
 * The header bridge nodes seal their relays with. Named here, where both the bridge (which seals
 * and opens it) and the proxy (which keeps it from every server) can read it.
 */
export const BRIDGE_RELAY_HEADER = 'mcp-sunset-bridge-relay';
