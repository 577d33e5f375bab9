import { describe, expect, test } from 'vitest';
import { computePlanStatus, type RetirementPlan } from '../../server/analysis/compute-plan-status.js';
import { computeTrend, DEFAULT_TREND_THRESHOLDS, type Trend } from '../../server/analysis/compute-trend.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { afterWeeks, dailyRows, START, weeklyPoints, weeklySeries } from './synthetic-series.js';

const T = DEFAULT_TREND_THRESHOLDS;
const TARGET = 0.005;
const RETIRE = Date.UTC(2027, 2, 1);

function plan(retireDate: number, overrides: Partial<RetirementPlan> = {}): RetirementPlan {
  return { retireDate, announceDate: START, targetShare: TARGET, ...overrides };
}

/** rows → weekly series → trend → status, the way the API will call them. */
function statusOf(rows: ReturnType<typeof dailyRows>, weeks: number, retireDate: number, now = afterWeeks(weeks)) {
  const trend = computeTrend(weeklySeries(rows, weeks), TARGET, T, now);
  return { trend, status: computePlanStatus(plan(retireDate), trend, trend.currentShare, now, T) };
}

describe('computePlanStatus', () => {
  const decline = dailyRows({ days: 70, share: (d) => 0.4 * 2 ** (-(d + 0.5) / 35), servedPerDay: 100_000, noise: 0.03, seed: 7 });
  const crossing = START + 35 * Math.log2(0.4 / TARGET) * DAY_MS;

  test('an exponential decline is on track for a retire date after its crossing', () => {
    const { status } = statusOf(decline, 10, crossing + 30 * DAY_MS);
    expect(status.status).toBe('on-track');
    expect(Math.abs(status.projectedDate! - crossing)).toBeLessThan(DAY_MS);
    expect(status.reason).toMatch(/^Legacy share is 10\.71% and falling \(Mann–Kendall p < 0\.001, −2\.88 pp\/week\); at this rate it reaches the 0\.50% target on 2026-08-1[34], 30 days before the retire date 2026-09-1[23]\.$/);
  });

  test('the same decline is off track for a retire date well before its crossing', () => {
    const { status } = statusOf(decline, 10, crossing - 70 * DAY_MS);
    expect(status.status).toBe('off-track');
    expect(status.reason).toMatch(/reaches the 0\.50% target on 2026-08-1[34], 7[01] days after the retire date/);
  });

  test('a crossing up to atRiskDays after the retire date is at risk', () => {
    expect(statusOf(decline, 10, crossing - 7 * DAY_MS).status.status).toBe('at-risk');
    expect(statusOf(decline, 10, crossing - 20 * DAY_MS).status.status).toBe('off-track');
  });

  test('a decline that flattens at 8% is off track with no projection, in words a product manager can read', () => {
    const rows = dailyRows({ days: 30 * 7, share: (d) => 0.08 + 0.32 * 2 ** (-d / 10), servedPerDay: 20_000, noise: 0.05, seed: 11 });
    for (const weeks of [28, 29]) {
      const { status } = statusOf(rows, 30, RETIRE, afterWeeks(weeks));
      expect(status).toMatchObject({ status: 'off-track', projectedDate: null });
      expect(status.reason).toMatch(/^Legacy share is [78]\.\d\d% and flat \(Mann–Kendall p = 0\.\d\d, −?0\.0\d pp\/week\); at this rate it will not reach the 0\.50% target by the retire date 2027-03-01\.$/);
    }
  });

  test('a rising share is off track', () => {
    const rows = dailyRows({ days: 70, share: (d) => 0.02 * 2 ** (d / 35), servedPerDay: 20_000, noise: 0.05, seed: 5 });
    const { status } = statusOf(rows, 10, RETIRE);
    expect(status).toMatchObject({ status: 'off-track', projectedDate: null });
    expect(status.reason).toContain('and rising (Mann–Kendall p = 1.00, 0.55 pp/week)');
  });

  test('a share already at or below the target is met', () => {
    const rows = dailyRows({ days: 42, share: () => 0.003, servedPerDay: 100_000, noise: 0.05, seed: 2 });
    const { status } = statusOf(rows, 6, RETIRE);
    expect(status.status).toBe('met');
    expect(status.projectedDate).toBe(START);
    expect(status.reason).toMatch(/^Legacy share is 0\.3\d%, at or below the 0\.50% target, 3\d\d days before the retire date 2027-03-01\.$/);
  });

  test('the share the caller passes decides "met" even when the complete weeks were above target', () => {
    const trend = computeTrend(weeklyPoints([0.03, 0.02, 0.01, 0.008]), TARGET, T, afterWeeks(4));
    expect(computePlanStatus(plan(RETIRE), trend, 0.004, afterWeeks(4) + DAY_MS, T)).toMatchObject({ status: 'met', projectedDate: afterWeeks(4) + DAY_MS });
  });

  test('fewer than minPoints complete weeks is unknown', () => {
    const rows = dailyRows({ days: 21, share: () => 0.2, servedPerDay: 1_000, seed: 1 });
    const { status } = statusOf(rows, 3, RETIRE);
    expect(status).toMatchObject({ status: 'unknown', projectedDate: null });
    expect(status.reason).toBe('Legacy share is 20.00%; with 3 complete weeks of traffic and at least 4 needed, there is no trend yet to judge against the 0.50% target by the retire date 2027-03-01.');
    const none = computeTrend([], TARGET, T, afterWeeks(1));
    expect(computePlanStatus(plan(RETIRE), none, null, afterWeeks(1), T).reason).toMatch(/^Legacy share has no served traffic yet; with 0 complete weeks/);
  });

  test('a projection that makes it, with the retire date under 30 days away and no significant decline yet, is at risk', () => {
    const trend = computeTrend(weeklyPoints([0.4, 0.2, 0.1, 0.05, 0.025]), TARGET, T, afterWeeks(5)) as Extract<Trend, { kind: 'fitted' }>;
    const unsure: Trend = { ...trend, significantDecrease: false, mannKendall: { ...trend.mannKendall, pValue: 0.08 } };
    const retire = trend.projectedDate! + 3 * DAY_MS;
    const now = retire - 20 * DAY_MS;
    const status = computePlanStatus(plan(retire), unsure, trend.currentShare, now, T);
    expect(status).toMatchObject({ status: 'at-risk', daysToRetire: 20 });
    expect(status.reason).toContain('20 days away the decline is not yet statistically significant');
    expect(computePlanStatus(plan(retire), trend, trend.currentShare, now, T).status).toBe('on-track');
    expect(computePlanStatus(plan(retire), unsure, trend.currentShare, retire - 60 * DAY_MS, T).status).toBe('on-track');
  });

  test('a crossing more than 50 years out is off track and names the year', () => {
    const trend = computeTrend(weeklyPoints(Array.from({ length: 8 }, (_, i) => 0.3 * Math.exp(-0.001 * i))), TARGET, { ...T, flatSlopePerWeek: 0 }, afterWeeks(8));
    const status = computePlanStatus(plan(RETIRE), trend, null, afterWeeks(8), T);
    expect(status).toMatchObject({ status: 'off-track', projectedDate: null });
    expect(status.reason).toMatch(/^Legacy share is 29\.\d\d% and falling .*; at this rate it would reach the 0\.50% target only in 2\d{3}, long after the retire date 2027-03-01\.$/);
  });

  test('counts whole days to the retire date, rounding up, negative once it has passed, and names the scope it was given', () => {
    const trend = computeTrend(weeklyPoints([0.1, 0.1, 0.1, 0.1]), TARGET, T, afterWeeks(4));
    expect(computePlanStatus(plan(RETIRE), trend, null, RETIRE - 1.5 * DAY_MS, T).daysToRetire).toBe(2);
    expect(computePlanStatus(plan(RETIRE), trend, null, RETIRE, T).daysToRetire).toBe(0);
    const late = computePlanStatus(plan(RETIRE, { label: 'http+sse' }), trend, null, RETIRE + 3 * DAY_MS, T);
    expect(late.daysToRetire).toBe(-3);
    expect(late.reason).toMatch(/^http\+sse share is 10\.00% and flat/);
  });
});
