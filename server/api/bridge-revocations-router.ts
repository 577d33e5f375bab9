import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { BRIDGE_CHANNEL_PREFIX, BRIDGE_SESSION_ID, MAX_BRIDGE_TOKEN_CHARS, readBridgeTokenClaims, readChannelTokenSessionId } from '../protocol/read-bridge-token-claims.js';
import type { Store } from '../store/store.js';
import type { BridgeRevocationInput } from '../store/records/bridge-revocation-record.js';
import { actorOf } from './actor-of.js';
import { parseInput } from './parse-input.js';
import { bridgeRevocationToJson } from './to-json.js';

export interface BridgeRevocationsRouterDeps {
  store: () => Store;
  now: () => number;
  /** Told after a revocation; the answer waits for it, so this node refuses the session before the client hears of it. */
  onChange?: () => Promise<void>;
}

export const revocationBody = z
  .object({
    /** The session token as the client sent it, an HTTP+SSE channel token (from its message URL), or the bare session id inside either. */
    session: z.string().trim().min(1).max(MAX_BRIDGE_TOKEN_CHARS),
    expiresAt: z.iso.datetime({ offset: true, message: 'expected an ISO-8601 time such as 2027-01-15T09:00:00Z' }).optional(),
    reason: z.string().trim().max(200).optional().transform((v) => (v === undefined || v === '' ? null : v)),
  })
  .strict();

const invalid = (parameter: 'session' | 'expiresAt', message: string) => new AppError('invalid_parameter', `${parameter}: ${message}`, parameter);

/**
 * A token names its session and expiry itself; a bare id needs the expiry said, since the row must
 * outlive the token it revokes. Tokens are read without the key, so this API needs none and takes
 * a token sealed by any node; a forged one names no more than a bare id would.
 */
function revocationOf(body: z.output<typeof revocationBody>): BridgeRevocationInput {
  const { session, expiresAt, reason } = body;
  if (session.startsWith(`${BRIDGE_CHANNEL_PREFIX}.`)) {
    // A channel token carries no expiry: like a bare id, it needs one said.
    const sessionId = readChannelTokenSessionId(session);
    if (sessionId === undefined) throw invalid('session', `not an HTTP+SSE channel token (${BRIDGE_CHANNEL_PREFIX}.<node>.<channel>.<mac>)`);
    if (expiresAt === undefined) throw invalid('expiresAt', 'required with a channel token: when its session expires (at most bridge.sessionTtlMs from now)');
    return { sessionId, expiresAt: Date.parse(expiresAt), reason };
  }
  if (session.includes('.')) {
    const claims = readBridgeTokenClaims(session);
    if (claims === undefined) throw invalid('session', 'not a bridge session token (mss1.<key>.<payload>.<mac>) nor a bare session id');
    if (expiresAt !== undefined) throw invalid('expiresAt', 'a token carries its own expiry; send expiresAt only with a bare session id');
    return { ...claims, reason };
  }
  if (!BRIDGE_SESSION_ID.test(session)) throw invalid('session', 'a bare session id is 1 to 128 characters of A-Z, a-z, 0-9, - and _');
  if (expiresAt === undefined) throw invalid('expiresAt', 'required with a bare session id: when its token expires');
  return { sessionId: session, expiresAt: Date.parse(expiresAt), reason };
}

/** Legacy-bridge sessions refused on every node: revoke one, list those in force. */
export function createBridgeRevocationsRouter(deps: BridgeRevocationsRouterDeps): Router {
  const router = Router();

  router.get('/bridge/revocations', async (_req, res) => {
    res.json({ revocations: (await deps.store().listBridgeRevocations(deps.now())).map(bridgeRevocationToJson) });
  });

  router.post('/bridge/revocations', async (req, res) => {
    const revocation = revocationOf(parseInput(revocationBody, req.body));
    const stored = await deps.store().upsertBridgeRevocation(revocation, deps.now(), actorOf(res));
    await deps.onChange?.();
    res.status(201).json(bridgeRevocationToJson(stored));
  });
  return router;
}
