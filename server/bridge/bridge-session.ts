/**
 * What a legacy session through the bridge is, carried in its `Mcp-Session-Id` instead of a table:
 * any node holding the key can serve the next request of the session.
 */
export interface BridgeSession {
  /** Random, base64url: names the session for revocation and in logs. */
  id: string;
  /** The legacy protocol version negotiated in `initialize`. */
  version: string;
  /** The client's `capabilities` from `initialize`, passed on in every modern request's `_meta`. */
  clientCapabilities: Record<string, unknown>;
  /** The client's `clientInfo` from `initialize`. */
  clientInfo: { name: string; version: string } & Record<string, unknown>;
  /** When the session was opened and when it stops being honoured, epoch ms. */
  issuedAt: number;
  /**
   * The node that opened the session (its URL): the session's standalone stream, and the resource
   * subscriptions that feed it, live there, so every node can send them to one place.
   */
  home?: string;
  expiresAt: number;
  /**
   * When sealing: the credential (`Authorization`) that opened the session, or null for none; the
   * token carries only a MAC of it under the sealing key. When opened: the MAC read back.
   */
  credential?: string | null;
}
