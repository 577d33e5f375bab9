import { describe, expect, test } from 'vitest';
import { formatDay, formatPercent, formatPointsPerWeek, formatPValue, formatYear } from '../../server/analysis/format-numbers.js';

describe('format-numbers', () => {
  test('formatPercent gives two decimals and a typographic minus', () => {
    expect([formatPercent(0.08123), formatPercent(0.005), formatPercent(1), formatPercent(-0.0001)]).toEqual(['8.12%', '0.50%', '100.00%', '−0.01%']);
  });

  test('formatDay gives the UTC date, and "never" for a time Date cannot hold', () => {
    expect([formatDay(Date.UTC(2027, 2, 1, 23, 59)), formatDay(Number.NaN), formatDay(1e300)]).toEqual(['2027-03-01', 'never', 'never']);
  });

  test('formatYear gives the UTC year, and words for a time Date cannot hold', () => {
    expect([formatYear(Date.UTC(2081, 0, 1)), formatYear(1e300), formatYear(Number.NaN)]).toEqual(['2081', 'the far future', 'the far future']);
  });

  test('formatPValue keeps two decimals, two significant digits below 0.01, and a bound below 0.001', () => {
    expect([formatPValue(0.4123), formatPValue(0.0123), formatPValue(0.0042), formatPValue(0.00042), formatPValue(Number.NaN)]).toEqual(['p = 0.41', 'p = 0.01', 'p = 0.0042', 'p < 0.001', 'p unknown']);
  });

  test('formatPointsPerWeek states share slopes in percentage points, never as −0.00', () => {
    expect([formatPointsPerWeek(-0.0002), formatPointsPerWeek(0.0055), formatPointsPerWeek(-0.00001)]).toEqual(['−0.02 pp/week', '0.55 pp/week', '0.00 pp/week']);
  });
});
