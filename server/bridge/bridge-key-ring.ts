import { createHash } from 'node:crypto';

/** Shorter keys are refused: the session tokens are only as hard to forge as the key is to guess. */
export const MIN_BRIDGE_KEY_BYTES = 32;

export interface BridgeKey {
  /** Derived from the secret, so nodes sharing a key agree on it with nothing more configured. */
  id: string;
  secret: Buffer;
  /** For a previous key: the last moment (epoch ms) a token it sealed is still opened. None for the current key. */
  acceptedUntil: number | undefined;
}

/** Reads a key written as hex, as the config file and `MCP_SUNSET_BRIDGE_KEY` carry it. Throws naming what is wrong. */
export function bridgeKeyFromHex(hex: string, name: string): Buffer {
  const trimmed = hex.trim();
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(trimmed)) throw new Error(`${name} must be hex (an even number of 0-9, a-f)`);
  const secret = Buffer.from(trimmed, 'hex');
  if (secret.length < MIN_BRIDGE_KEY_BYTES) throw new Error(`${name} must be at least ${MIN_BRIDGE_KEY_BYTES} bytes (${MIN_BRIDGE_KEY_BYTES * 2} hex digits); it has ${secret.length}`);
  return secret;
}

function keyId(secret: Buffer): string {
  return createHash('sha256').update(secret).digest('base64url').slice(0, 8);
}

/**
 * The keys the bridge seals and opens sessions with: the current one seals, and previous ones
 * still open what they sealed until their grace period ends, so a key can be rotated on every node
 * without cutting the sessions already open.
 */
export class BridgeKeyRing {
  readonly current: BridgeKey;
  private readonly byId: ReadonlyMap<string, BridgeKey>;

  constructor(current: Buffer, previous: readonly { secret: Buffer; acceptedUntil: number }[] = []) {
    for (const secret of [current, ...previous.map((p) => p.secret)]) {
      if (secret.length < MIN_BRIDGE_KEY_BYTES) throw new Error(`a bridge key must be at least ${MIN_BRIDGE_KEY_BYTES} bytes`);
    }
    this.current = { id: keyId(current), secret: current, acceptedUntil: undefined };
    const byId = new Map<string, BridgeKey>([[this.current.id, this.current]]);
    for (const { secret, acceptedUntil } of previous) {
      const key: BridgeKey = { id: keyId(secret), secret, acceptedUntil };
      // The current key is never demoted by also being listed as a previous one.
      if (!byId.has(key.id)) byId.set(key.id, key);
    }
    this.byId = byId;
  }

  find(id: string): BridgeKey | undefined {
    return this.byId.get(id);
  }

  /** Every key held, the current one first. */
  all(): IterableIterator<BridgeKey> {
    return this.byId.values();
  }
}
