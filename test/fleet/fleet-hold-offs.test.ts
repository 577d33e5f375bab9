import { describe, expect, test } from 'vitest';
import { createFleetHoldOffs } from '../../server/fleet/fleet-hold-offs.js';

const T = Date.parse('2026-12-01T12:00:00Z');

describe('createFleetHoldOffs', () => {
  test('an unavailable node that asked for Retry-After is held until then, and not a moment longer', () => {
    const holds = createFleetHoldOffs();
    holds.note('a', { state: 'unavailable', retryAfterMs: 30_000 }, T);
    expect(holds.heldUntil('a', T + 29_999)).toBe(T + 30_000);
    expect(holds.heldUntil('a', T + 30_000)).toBeUndefined();
    expect(holds.heldUntil('b', T)).toBeUndefined();
  });

  test('a later verdict without Retry-After lifts the hold; one without a wait never sets it', () => {
    const holds = createFleetHoldOffs();
    holds.note('a', { state: 'unavailable', retryAfterMs: 30_000 }, T);
    holds.note('a', { state: 'unavailable', retryAfterMs: null }, T);
    expect(holds.heldUntil('a', T + 1)).toBeUndefined();
    holds.note('b', { state: 'unavailable', retryAfterMs: 0 }, T);
    holds.note('c', { state: 'ready', retryAfterMs: null }, T);
    expect([holds.heldUntil('b', T), holds.heldUntil('c', T)]).toEqual([undefined, undefined]);
  });
});
