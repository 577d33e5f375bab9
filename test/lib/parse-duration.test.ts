import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatDuration, parseDuration } from '../../server/lib/parse-duration.js';

describe('parseDuration', () => {
  test.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['3d', 259_200_000],
    ['1d12h', 129_600_000],
    ['1h30m15s', 5_415_000],
    ['0m', 0],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  test.each(['', '24', 'h', '1.5h', '-1h', '1 h', '1H', '30m1h', '1h1h', '24 hours', '1w', ' 1h', '1234567h'])('%j is refused', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  test('formatDuration writes what parseDuration reads back, for any whole number of seconds', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 * 86_400 }), (seconds) => parseDuration(formatDuration(seconds * 1000)) === seconds * 1000));
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(86_400_000)).toBe('1d');
  });
});
