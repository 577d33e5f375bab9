import { describe, expect, test } from 'vitest';
import { computeDryRun, computeDryRunWindow, savedOn, type DryRunCallerRow, type DryRunInputs } from '../../server/analysis/compute-dry-run.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { dayStart } from '../../server/analysis/plan-clock.js';

const AT = '2027-03-01';
const WINDOW = computeDryRunWindow(AT, 10, dayStart('2027-06-01'));

function row(integration: string, requests: number, overrides: Partial<DryRunCallerRow> = {}): DryRunCallerRow {
  return { integration, requests, lastSeen: dayStart('2027-02-27'), versions: ['2025-06-18'], transports: ['streamable-http'], wouldBlock: 0, ...overrides };
}

const UNIDENTIFIED = new Set(['anonymous', 'other']);
const base: DryRunInputs = {
  at: AT,
  window: WINDOW,
  callers: [],
  facts: (integration) => ({ identifiable: !UNIDENTIFIED.has(integration), displayName: integration === 'tok_a' ? 'Acme sync' : null, owner: null, contact: null, migration: 'legacy-only', told: { notices: 0, lastNoticeAt: null, lastContactAt: null }, people: integration.startsWith('oauth:') ? 3 : null }),
  exemptions: [],
  servedRequests: 0,
  live: false,
  refusedPeople: 0,
};

describe('computeDryRunWindow', () => {
  test('a cut date in the past reads the quiet days before it, whole days, the day itself left out', () => {
    const window = computeDryRunWindow(AT, 30, dayStart('2027-06-01'));
    expect(window).toEqual({ from: dayStart(AT) - 30 * DAY_MS, to: dayStart(AT), days: 30 });
  });

  test('a cut date after now reads up to now, with today so far as the last of the quiet days', () => {
    const now = dayStart('2027-02-10') + DAY_MS / 4;
    const window = computeDryRunWindow(AT, 30, now);
    expect(window.to).toBe(now);
    expect(window.from).toBe(dayStart('2027-02-10') - 29 * DAY_MS);
    expect(window.days).toBe(29.25);
  });
});

describe('computeDryRun', () => {
  test('lists identifiable callers first, then by volume, and takes the refused share of all served work', () => {
    const report = computeDryRun({
      ...base,
      callers: [row('anonymous', 900), row('tok_b', 50), row('tok_a', 200), row('tok_c', 50)],
      servedRequests: 4_000,
    });
    expect(report.callers.map((c) => c.integration)).toEqual(['tok_a', 'tok_b', 'tok_c', 'anonymous']);
    expect(report.callers[0]).toMatchObject({ displayName: 'Acme sync', identifiable: true, requests: 200, requestsPerDay: 20, savedBy: null });
    expect(report.callers[3]!.identifiable).toBe(false);
    expect(report.totals).toEqual({ callers: 4, refusedCallers: 4, savedCallers: 0, refusedRequests: 1_200, servedRequests: 4_000, refusedPeople: 0 });
    expect(report.refusedShare).toBe(0.3);
    expect(report.live).toBeNull();
  });

  test('an exemption whose last day is on or after D saves its caller, which stays listed; one ending the day before does not', () => {
    const exemptions = [
      { integration: 'tok_a', until: '2027-02-28', note: 'lapsed' },
      { integration: 'tok_a', until: AT, note: 'last day is the cut' },
      { integration: 'tok_b', until: '2027-02-28', note: null },
    ];
    const report = computeDryRun({ ...base, callers: [row('tok_a', 30), row('tok_b', 10)], exemptions, servedRequests: 100 });
    expect(report.callers.find((c) => c.integration === 'tok_a')!.savedBy).toEqual({ until: AT, note: 'last day is the cut' });
    expect(report.callers.find((c) => c.integration === 'tok_b')!.savedBy).toBeNull();
    expect(report.totals).toMatchObject({ callers: 2, refusedCallers: 1, savedCallers: 1, refusedRequests: 10 });
    expect(report.refusedShare).toBe(0.1);
  });

  test('of several exemptions covering D, the longest is the one named', () => {
    const exemptions = [
      { integration: 'tok_a', until: '2027-12-31', note: 'long' },
      { integration: 'tok_a', until: '2027-04-01', note: 'short' },
    ];
    expect(computeDryRun({ ...base, callers: [row('tok_a', 1)], exemptions, servedRequests: 1 }).callers[0]!.savedBy).toEqual({ until: '2027-12-31', note: 'long' });
  });

  test('with nothing served there is no share, and no caller', () => {
    const report = computeDryRun(base);
    expect(report.refusedShare).toBeNull();
    expect(report.callers).toEqual([]);
    expect(report.totals).toEqual({ callers: 0, refusedCallers: 0, savedCallers: 0, refusedRequests: 0, servedRequests: 0, refusedPeople: 0 });
  });

  test('versions and transports are listed in order, whatever order they came in', () => {
    const report = computeDryRun({ ...base, callers: [row('tok_a', 3, { versions: ['2025-06-18', '2024-11-05'], transports: ['streamable-http', 'http+sse'] })], servedRequests: 3 });
    expect(report.callers[0]).toMatchObject({ versions: ['2024-11-05', '2025-06-18'], transports: ['http+sse', 'streamable-http'] });
  });

  test('a plan in dry run carries the recorded would-block counts of the same callers, per caller and in total', () => {
    const callers = [row('tok_a', 30, { wouldBlock: 12 }), row('tok_b', 10)];
    const report = computeDryRun({ ...base, callers, servedRequests: 40, live: true });
    expect(report.live).toEqual({ wouldBlock: 12, byCaller: new Map([['tok_a', 12], ['tok_b', 0]]) });
  });
});

describe('savedOn', () => {
  test('names the callers an exemption lets through on the cut date, and only those', () => {
    const exemptions = [
      { integration: 'oauth:a', until: '2027-03-31', note: null },
      { integration: 'oauth:b', until: '2027-02-01', note: 'lapsed before the cut' },
    ];
    expect(savedOn(AT, ['oauth:a', 'oauth:b', 'oauth:c'], exemptions)).toEqual(['oauth:a']);
  });
});

describe('computeDryRun: people', () => {
  test('each caller carries its people in scope, and the totals the people the cut would refuse, as counted by the store', () => {
    const report = computeDryRun({ ...base, callers: [row('oauth:a', 5), row('tok_b', 2)], servedRequests: 7, refusedPeople: 4 });
    expect(report.callers.map((c) => [c.integration, c.people])).toEqual([
      ['oauth:a', 3],
      ['tok_b', null],
    ]);
    expect(report.totals.refusedPeople).toBe(4);
  });
});
