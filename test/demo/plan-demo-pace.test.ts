import { describe, expect, test } from 'vitest';
import { DEMO_CLIENTS } from '../../server/demo/demo-clients.js';
import { DEFAULT_DEMO_DAY } from '../../server/demo/demo-traffic.js';
import { nextDemoSession, planDemoPace, type DemoDay } from '../../server/demo/plan-demo-pace.js';
import { countDemoSessionWork } from '../../server/demo/run-demo-session.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const CLIENTS = DEMO_CLIENTS.map((c) => ({ kind: c.kind, era: c.era, workPerSession: countDemoSessionWork(c.rounds) }));

type Kind = (typeof CLIENTS)[number]['kind'];

/** Sessions started by each client, walking the merged schedule up to `elapsedMs`. */
function walk(periods: Record<Kind, number>, elapsedMs: number): Record<Kind, number> {
  const started = Object.fromEntries(CLIENTS.map((c) => [c.kind, 0])) as Record<Kind, number>;
  for (let next = nextDemoSession(periods, started); next !== undefined && next.dueMs <= elapsedMs; next = nextDemoSession(periods, started)) started[next.kind]++;
  return started;
}

/** Work requests the demo clients have sent `elapsedMs` into a run, by era, if every session ran on time. */
function liveWork(day: DemoDay, elapsedMs: number): { legacy: number; modern: number } {
  const started = walk(planDemoPace(day, CLIENTS), elapsedMs);
  const work = { legacy: 0, modern: 0 };
  for (const client of CLIENTS) work[client.era] += started[client.kind] * client.workPerSession;
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

  test("a minute in, today's share is the seeded part of today's, even just after midnight", () => {
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

  test('an era with no work gets no sessions', () => {
    const periods = planDemoPace({ workRequests: 1_000, legacyShare: 0 }, CLIENTS);
    expect(periods['legacy-http']).toBe(Number.POSITIVE_INFINITY);
    const started = walk(periods, DAY_MS);
    expect(started['legacy-http']).toBe(0);
    expect(started['modern-pin']).toBeGreaterThan(1);
  });
});

describe('nextDemoSession', () => {
  test('every client at once, then the earliest due session, each in the middle of its period', () => {
    const periods = { a: 1_000, b: 2_500 };
    const started = { a: 0, b: 0 };
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      const next = nextDemoSession(periods, started)!;
      order.push(`${next.kind}@${next.dueMs}`);
      started[next.kind]++;
    }
    expect(order).toEqual(['a@0', 'b@0', 'a@1500', 'a@2500', 'a@3500', 'b@3750', 'a@4500']);
  });

  test('nothing is due when no client has a finite period', () => {
    expect(nextDemoSession({ a: Number.POSITIVE_INFINITY }, { a: 0 })).toBeUndefined();
  });

  test('a stretch of whole periods holds one session per period', () => {
    const started = { a: 0 };
    const due: number[] = [];
    for (let next = nextDemoSession({ a: 1_000 }, started); next !== undefined && next.dueMs < 10_000; next = nextDemoSession({ a: 1_000 }, started)) {
      due.push(next.dueMs);
      started.a++;
    }
    expect(due).toHaveLength(10);
  });
});
