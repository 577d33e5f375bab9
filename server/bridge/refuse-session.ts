import { SESSION_NOT_FOUND } from '../protocol/error-codes.js';
import { rpcError } from '../protocol/rpc-error.js';
import type { BridgeAnswer } from './bridge-answer.js';
import type { RefusedSession } from './bridge-sessions.js';

/**
 * A session not honoured: `404` and `session not found`, which a legacy client takes as "open a new
 * one"; `503` while this node does not know the revoked sessions, since a new one would not open either.
 */
export function refuseSession(answer: BridgeAnswer, reason: RefusedSession): void {
  answer.json(reason === 'revocations-unknown' ? 503 : 404, rpcError(null, SESSION_NOT_FOUND, `mcp-sunset bridge: session not found (${reason})`));
}
