import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computeWeekStart, WEEK_MS } from '../../server/analysis/compute-week-start.js';

describe('computeWeekStart', () => {
  test.each([
    { at: '2026-01-05T00:00:00Z', week: '2026-01-05' }, // a Monday is its own week start
    { at: '2026-01-11T23:59:59.999Z', week: '2026-01-05' }, // the Sunday after it
    { at: '2027-01-01T12:00:00Z', week: '2026-12-28' }, // across a year boundary
    { at: '2021-01-03T00:00:00Z', week: '2020-12-28' }, // ISO week 53 of 2020
    { at: '1970-01-01T00:00:00Z', week: '1969-12-29' }, // the epoch was a Thursday
    { at: '1969-12-28T08:00:00Z', week: '1969-12-22' }, // before the epoch
  ])('$at falls in the week starting $week', ({ at, week }) => {
    expect(new Date(computeWeekStart(Date.parse(at))).toISOString().slice(0, 10)).toBe(week);
  });

  test('answers a Monday at 00:00 UTC no later than the time and less than a week before it (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -4e12, max: 8e12 }), (at) => {
        const start = computeWeekStart(at);
        expect(new Date(start).getUTCDay()).toBe(1);
        expect(Math.abs(start % 86_400_000)).toBe(0);
        expect(start).toBeLessThanOrEqual(at);
        expect(at - start).toBeLessThan(WEEK_MS);
      }),
    );
  });
});
