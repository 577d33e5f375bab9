import { describe, expect, test } from 'vitest';
import { createLogger } from '../../../server/lib/create-logger.js';
import { createRevocationRefresher } from '../../../server/metering/create-revocation-refresher.js';
import { BACKENDS, DAY, HOUR, NOON, useStores } from './backends.js';

describe.each(BACKENDS)('%s store: bridge revocations', (_dialect, backend) => {
  const { open, freshLocation } = useStores(backend);

  test('a revocation comes back as stored and is listed while its token has not expired', async () => {
    const store = await open();
    const stored = await store.upsertBridgeRevocation({ sessionId: 'c2Vzc2lvbi1vbmU', expiresAt: NOON + DAY, reason: 'laptop lost' }, NOON);
    expect(stored).toEqual({ sessionId: 'c2Vzc2lvbi1vbmU', revokedAt: NOON, expiresAt: NOON + DAY, reason: 'laptop lost' });
    expect(await store.listBridgeRevocations(NOON + HOUR)).toEqual([stored]);
    // The bridge refuses a token from its expiry on, so the revocation is over at that same instant.
    expect(await store.listBridgeRevocations(NOON + DAY - 1)).toEqual([stored]);
    expect(await store.listBridgeRevocations(NOON + DAY)).toEqual([]);
  });

  test('revoking again keeps the first revocation, and only ever moves its expiry later', async () => {
    const store = await open();
    const first = await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + HOUR, reason: 'first' }, NOON);
    const again = await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + HOUR, reason: 'second' }, NOON + 10);
    expect(again).toEqual(first);
    // A bare id revoked with a guessed expiry, then the token itself: the revocation lasts as long as the token.
    const longer = await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + DAY, reason: null }, NOON + 20);
    expect(longer).toEqual({ ...first, expiresAt: NOON + DAY });
    const shorter = await store.upsertBridgeRevocation({ sessionId: 'abc', expiresAt: NOON + 1, reason: null }, NOON + 30);
    expect(shorter).toEqual({ ...first, expiresAt: NOON + DAY });
    expect(await store.listBridgeRevocations(NOON + 2 * HOUR)).toEqual([shorter]);
  });

  test('the list holds only those in force, oldest first; the retention pass deletes the expired ones', async () => {
    const store = await open();
    await store.upsertBridgeRevocation({ sessionId: 'B', expiresAt: NOON + DAY, reason: null }, NOON - 2 * HOUR);
    await store.upsertBridgeRevocation({ sessionId: 'expired', expiresAt: NOON - HOUR, reason: null }, NOON - 3 * HOUR);
    await store.upsertBridgeRevocation({ sessionId: 'a', expiresAt: NOON + HOUR, reason: null }, NOON - 2 * HOUR);
    await store.upsertBridgeRevocation({ sessionId: 'ends-now', expiresAt: NOON, reason: null }, NOON - HOUR);
    await store.upsertBridgeRevocation({ sessionId: 'newest', expiresAt: NOON + DAY, reason: null }, NOON - HOUR);
    const inForce = ['B', 'a', 'newest'];
    expect((await store.listBridgeRevocations(NOON)).map((r) => r.sessionId)).toEqual(inForce);
    expect(await store.deleteExpiredBridgeRevocations(NOON)).toBe(2);
    expect(await store.deleteExpiredBridgeRevocations(NOON)).toBe(0);
    // What was deleted was no longer in force; what is in force is untouched.
    expect((await store.listBridgeRevocations(NOON)).map((r) => r.sessionId)).toEqual(inForce);
    expect((await store.listBridgeRevocations(NOON - 2 * HOUR)).map((r) => r.sessionId)).toEqual(inForce);
  });

  test('a revocation made through one node is refused by another node\'s refresher after its next read', async () => {
    const location = await freshLocation();
    const [writer, reader] = [await open(location), await open(location)];
    const refresher = createRevocationRefresher({ store: reader, now: () => NOON, logger: createLogger('silent'), refreshEveryMs: 60_000 });
    await refresher.start();
    try {
      expect(refresher.isRevoked('c2Vzc2lvbi1vbmU')).toBe(false);
      await writer.upsertBridgeRevocation({ sessionId: 'c2Vzc2lvbi1vbmU', expiresAt: NOON + HOUR, reason: null }, NOON);
      expect(refresher.isRevoked('c2Vzc2lvbi1vbmU')).toBe(false);
      await refresher.refresh();
      expect(refresher.isRevoked('c2Vzc2lvbi1vbmU')).toBe(true);
      expect(refresher.isRevoked('c2Vzc2lvbi10d28')).toBe(false);
      expect(refresher.health()).toEqual({ revoked: 1, refreshedAt: new Date(NOON).toISOString(), lastError: null });
    } finally {
      refresher.stop();
    }
  });
});
