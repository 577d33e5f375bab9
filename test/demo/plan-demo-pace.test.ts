import { describe, expect, test } from 'vitest';
import { DEMO_CLIENTS } from '../../server/demo/demo-clients.js';
import { DEFAULT_DEMO_DAY } from '../../server/demo/demo-traffic.js';
import { countDemoSessionsDue, planDemoPace, type DemoDay } from '../../server/demo/plan-demo-pace.js';
import { countDemoSessionWork } from '../../server/demo/run-demo-session.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const CLIENTS = DEMO_CLIENTS.map((c) => ({ kind: c.kind, era: c.era, workPerSession: countDemoSessionWork(c.rounds) }));

/** Work requests the demo clients have sent `elapsedMs` into a run, by era, if every session ran on time. */
function liveWork(day: DemoDay, elapsedMs: number): { legacy: number; modern: number } {
  const periods = planDemoPace(day, CLIENTS);
  const work = { legacy: 0, modern: 0 };
  for (const client of CLIENTS) work[client.era] += countDemoSessionsDue(periods[client.kind], elapsedMs) * client.workPerSession;
  return work;
}

const shareOf = (work: { legacy: number; modern: number }) => work.legacy / (work.legacy + work.modern);

describe('planDemoPace', () => {
  for (const day of [DEFAULT_DEMO_DAY, { workRequests: 22_000, legacyShare: 0.074 }, { workRequests: 5_000, legacyShare: 0.3 }]) {
    test(`a day of live traffic matches the day it imitates (${day.workRequests} work requests, ${day.legacyShare} legacy)`, () => {
      const work = liveWork(day, DAY_MS);
      expect(Math.abs(work.legacy + work.modern - day.workRequests) / day.workRequests).toBeLessThan(0.02);
      expect(Math.abs(shareOf(work) - day.legacyShare) / day.legacyShare).toBeLessThan(0.03);
    });

    test(`three hours in, the share and the projected day already match (${day.workRequests}, ${day.legacyShare})`, () => {
      const work = liveWork(day, 3 * HOUR_MS);
      const projected = ((work.legacy + work.modern) * DAY_MS) / (3 * HOUR_MS);
      expect(Math.abs(projected - day.workRequests) / day.workRequests).toBeLessThan(0.1);
      expect(Math.abs(shareOf(work) - day.legacyShare) / day.legacyShare).toBeLessThan(0.15);
    });
  }

  test("a minute in, today's share barely moves from the seeded part of today, even just after midnight", () => {
    const day = DEFAULT_DEMO_DAY;
    const live = liveWork(day, MINUTE_MS);
    // The seed writes at least 5% of a day for today, at the seeded share.
    const seeded = { legacy: 0.05 * day.workRequests * day.legacyShare, modern: 0.05 * day.workRequests * (1 - day.legacyShare) };
    const today = shareOf({ legacy: seeded.legacy + live.legacy, modern: seeded.modern + live.modern });
    expect(Math.abs(today - day.legacyShare) / day.legacyShare).toBeLessThan(0.1);
  });

  test('legacy clients start far fewer work requests than modern ones, each era split evenly', () => {
    const periods = planDemoPace(DEFAULT_DEMO_DAY, CLIENTS);
    expect(periods['legacy-http']).toBe(periods['legacy-sse']);
    expect(periods['modern-pin']).toBe(periods['modern-auto']);
    const perDay = (kind: keyof typeof periods) => (DAY_MS / periods[kind]) * CLIENTS.find((c) => c.kind === kind)!.workPerSession;
    expect(perDay('legacy-http') / perDay('modern-pin')).toBeCloseTo(DEFAULT_DEMO_DAY.legacyShare / (1 - DEFAULT_DEMO_DAY.legacyShare), 6);
  });

  test('an era with no work gets its first session only', () => {
    const periods = planDemoPace({ workRequests: 1_000, legacyShare: 0 }, CLIENTS);
    expect(periods['legacy-http']).toBe(Number.POSITIVE_INFINITY);
    expect(countDemoSessionsDue(periods['legacy-http'], DAY_MS)).toBe(1);
    expect(Number.isFinite(periods['modern-pin'])).toBe(true);
  });
});

describe('countDemoSessionsDue', () => {
  test('one session at once, then one per period', () => {
    expect(countDemoSessionsDue(1_000, -1)).toBe(0);
    expect(countDemoSessionsDue(1_000, 0)).toBe(1);
    expect(countDemoSessionsDue(1_000, 999)).toBe(1);
    expect(countDemoSessionsDue(1_000, 1_000)).toBe(2);
    expect(countDemoSessionsDue(1_000, 10_500)).toBe(11);
  });
});
