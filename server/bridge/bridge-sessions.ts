import type { BridgeKeyRing } from './bridge-key-ring.js';
import type { BridgeSession } from './bridge-session.js';
import { openBridgeSession, type OpenFailure } from './open-bridge-session.js';

/**
 * Why a session is not honoured now, beyond its token (open-bridge-session.ts):
 * - `revoked`: an operator revoked it;
 * - `revocations-unknown`: this node could not read which sessions are revoked, so it honours none
 *   rather than a revoked one.
 */
export type RefusedSession = OpenFailure | 'revoked' | 'revocations-unknown';

export type SessionCheck = { ok: true; session: BridgeSession; stale: boolean } | { ok: false; reason: RefusedSession };

export interface BridgeSessionsOptions {
  ring: BridgeKeyRing;
  now: () => number;
  /** Session ids (BridgeSession.id) no longer honoured, though genuine and unexpired. */
  isRevoked?: (sessionId: string) => boolean;
  /** False while this node does not know the revoked set (never read, or not for too long). Absent: always known. */
  revocationsKnown?: () => boolean;
}

/**
 * Every check a session passes before anything is done for it, in one place: its token, its
 * credential, its expiry and revocation. Requests check it as they come; open streams and channels
 * are checked again on a schedule (`honoured`), so expiry and revocation reach them too.
 */
export class BridgeSessions {
  constructor(private readonly options: BridgeSessionsOptions) {}

  /** Opens a session id a request presents, with the request's credential (undefined: none). */
  open(token: string, credential: string | undefined): SessionCheck {
    const opened = openBridgeSession(this.options.ring, token, this.options.now(), { credential });
    if (!opened.ok) return opened;
    const why = this.refusal(opened.session);
    return why === undefined ? opened : { ok: false, reason: why };
  }

  /** Why a session held open (a stream, a channel) is no longer honoured, or undefined while it is. */
  refusal(session: BridgeSession): RefusedSession | undefined {
    if (this.options.now() >= session.expiresAt) return 'expired';
    if (this.options.revocationsKnown?.() === false) return 'revocations-unknown';
    if (this.options.isRevoked?.(session.id) === true) return 'revoked';
    return undefined;
  }
}
