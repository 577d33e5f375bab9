import type { BridgeKey, BridgeKeyRing } from './bridge-key-ring.js';

/**
 * The keys whose MACs are trusted at `now`: the current one, and each previous one until its
 * `acceptedUntil`. A key past its grace period opens nothing, whatever it sealed.
 */
export function* keysInForce(ring: BridgeKeyRing, now: number): Generator<BridgeKey> {
  for (const key of ring.all()) if (key.acceptedUntil === undefined || now <= key.acceptedUntil) yield key;
}
