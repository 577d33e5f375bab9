/**
 * The JSON-RPC method names that mark a protocol era or its handshake. Pure constants.
 */

export const METHOD = {
  /** Modern: the era probe and capability listing of the 2026-07-28 revision. */
  discover: 'server/discover',
  /** Legacy: the handshake request that opens a 2025 session (or stdio process scope). */
  initialize: 'initialize',
  /** Legacy: the notification that completes the handshake. */
  initialized: 'notifications/initialized',
  /** Either era: the client gives up on a request it sent; no answer will be counted for it. */
  cancelled: 'notifications/cancelled',
  toolsList: 'tools/list',
} as const;
