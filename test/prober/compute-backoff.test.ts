import { describe, expect, test } from 'vitest';
import { computeBackoffMs, parseRetryAfterMs } from '../../server/prober/compute-backoff.js';

describe('computeBackoffMs', () => {
  const waiting = { initialBackoffMs: 1000, maxBackoffMs: 5000, maxRetryAfterMs: 60_000, waitOnRetryAfter: true };
  const oneShot = { ...waiting, waitOnRetryAfter: false };

  test('doubles from the initial wait up to the cap', () => {
    expect([1, 2, 3, 4].map((attempt) => computeBackoffMs(attempt, null, waiting))).toEqual([1000, 2000, 4000, 5000]);
  });

  test('waiting on Retry-After, honours it, and gives up when it asks for more than we wait', () => {
    expect(computeBackoffMs(1, 7000, waiting)).toBe(7000);
    expect(computeBackoffMs(3, 100, waiting)).toBe(4000);
    expect(computeBackoffMs(1, 120_000, waiting)).toBeNull();
  });

  test('not waiting on Retry-After, any Retry-After ends the attempts, while plain outages still back off', () => {
    expect(computeBackoffMs(1, 30_000, oneShot)).toBeNull();
    expect(computeBackoffMs(1, 0, oneShot)).toBeNull();
    expect(computeBackoffMs(2, null, oneShot)).toBe(2000);
  });
});

describe('parseRetryAfterMs', () => {
  test('reads Retry-After as seconds or as an HTTP date, relative to now', () => {
    const now = Date.parse('2026-09-01T00:00:00Z');
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs('Tue, 01 Sep 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfterMs('Mon, 31 Aug 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
  });
});
