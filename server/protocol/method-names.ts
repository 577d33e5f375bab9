/**
 * The JSON-RPC method names that mark a protocol era or its handshake, and the methods the
 * published revisions define. Pure constants.
 */
import { NON_RPC_METHOD } from './vocabulary.js';

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

/**
 * Every method a published revision of either era defines (2024-11-05 to 2026-07-28, as the
 * official SDKs' schemas name them), and the names the sidecar gives an exchange with no JSON-RPC
 * method. Counting never folds one of these into `other`, however many made-up methods arrive
 * (design invariant 11); a method a later revision adds is counted by name while there is room.
 */
export const MCP_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'notifications/initialized',
  'server/discover',
  'ping',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/message',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'notifications/tools/list_changed',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'subscriptions/listen',
  'notifications/subscriptions/acknowledged',
  'prompts/list',
  'prompts/get',
  'notifications/prompts/list_changed',
  'completion/complete',
  'sampling/createMessage',
  'elicitation/create',
  'notifications/elicitation/complete',
  'roots/list',
  'notifications/roots/list_changed',
  'tasks/get',
  'tasks/list',
  'tasks/result',
  'tasks/cancel',
  'notifications/tasks/status',
  ...Object.values(NON_RPC_METHOD),
]);

/** True for a method a published revision defines, or a name the sidecar gives a non-JSON-RPC exchange. */
export function isKnownMethod(method: string): boolean {
  return MCP_METHODS.has(method);
}
