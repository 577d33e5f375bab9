/** A legacy-bridge session no longer honoured, though its token is genuine: every node reads these. */
export interface BridgeRevocationRecord {
  /** The id inside the token, not the token. */
  sessionId: string;
  revokedAt: number;
  /** The token's own expiry: the retention pass deletes the row after it. */
  expiresAt: number;
  reason: string | null;
}

/** What revoking a session takes; when is the call's `now`. */
export interface BridgeRevocationInput {
  sessionId: string;
  /** The token's expiry (epoch ms): past it, the bridge refuses the session anyway. */
  expiresAt: number;
  reason: string | null;
}
