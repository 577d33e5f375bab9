import { describe, expect, test } from 'vitest';
import { computeEnforcementTimeline, type EnforcementTimelineInputs } from '../../server/analysis/compute-enforcement-timeline.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import { dayStart, planClock } from '../../server/analysis/plan-clock.js';

const clock = planClock({ announceDate: '2027-01-01', retireDate: '2027-03-01', blockNewCallersFrom: '2027-02-01', gate: { backstopDate: '2027-06-01' } });
const brownout = { startsAt: dayStart('2027-02-10') + 14 * 3_600_000, endsAt: dayStart('2027-02-10') + 16 * 3_600_000, note: 'first' };
const before = { kind: 'before-retire', cutInForce: false, cutFrom: clock.retireAt } as const;
const base: EnforcementTimelineInputs = { action: 'deny', clock, brownouts: [brownout], gate: before };

describe('computeEnforcementTimeline', () => {
  test('lists announce, brownouts, block-new, retire, cut and backstop in time order, each with its state at now', () => {
    const now = dayStart('2027-02-05');
    const { entries } = computeEnforcementTimeline(base, now);
    expect(entries.map((e) => [e.kind, e.state])).toEqual([
      ['announce', 'in-force'],
      ['block-new', 'in-force'],
      ['brownout', 'upcoming'],
      ['retire', 'upcoming'],
      ['cut', 'upcoming'],
      ['backstop', 'upcoming'],
    ]);
    expect(entries.find((e) => e.kind === 'block-new')?.countSpan).toEqual({ from: clock.blockNewAt, to: now });
    expect(entries.find((e) => e.kind === 'brownout')?.countSpan).toBeNull();
    expect(entries.find((e) => e.kind === 'cut')?.countSpan).toBeNull();
  });

  test('a brownout is counted over its own span once it ended, and up to now while it lasts', () => {
    const during = brownout.startsAt + 3_600_000;
    expect(computeEnforcementTimeline(base, during).entries.find((e) => e.kind === 'brownout')).toMatchObject({ state: 'in-force', countSpan: { from: brownout.startsAt, to: during } });
    expect(computeEnforcementTimeline(base, during + DAY_MS).entries.find((e) => e.kind === 'brownout')).toMatchObject({ state: 'past', countSpan: { from: brownout.startsAt, to: brownout.endsAt } });
  });

  test('once the cut is in force, block-new ends at the cut and the cut is counted from its start to now', () => {
    const now = clock.retireAt + 3 * DAY_MS;
    const { entries, phase } = computeEnforcementTimeline({ ...base, gate: { kind: 'open', cutInForce: true, cutFrom: clock.retireAt } }, now);
    expect(phase).toBe('cut');
    expect(entries.find((e) => e.kind === 'block-new')).toMatchObject({ state: 'past', countSpan: { from: clock.blockNewAt, to: clock.retireAt } });
    expect(entries.find((e) => e.kind === 'cut')).toMatchObject({ state: 'in-force', countSpan: { from: clock.retireAt, to: now } });
    expect(entries.find((e) => e.kind === 'retire')?.state).toBe('past');
  });

  test('while the gate holds, the cut is placed at the backstop and block-new goes on', () => {
    const now = clock.retireAt + 3 * DAY_MS;
    const { entries, phase } = computeEnforcementTimeline({ ...base, gate: { kind: 'holding', cutInForce: false, cutFrom: clock.backstopAt! } }, now);
    expect(phase).toBe('gate-holding');
    expect(entries.find((e) => e.kind === 'cut')).toMatchObject({ at: clock.backstopAt, state: 'upcoming', countSpan: null });
    expect(entries.find((e) => e.kind === 'block-new')).toMatchObject({ state: 'in-force', countSpan: { from: clock.blockNewAt, to: now } });
  });

  test('the phase names what the action applies now', () => {
    const at = (action: EnforcementTimelineInputs['action'], now: number) => computeEnforcementTimeline({ ...base, action }, now).phase;
    expect(at('deny', clock.announceAt - 1)).toBe('observing');
    expect(at('deny', clock.announceAt)).toBe('announced');
    expect(at('deny', clock.blockNewAt!)).toBe('blocking-new');
    expect(at('deny', brownout.startsAt)).toBe('brownout');
    expect(at('deny', brownout.endsAt)).toBe('blocking-new');
    expect(at('dryrun', brownout.startsAt)).toBe('brownout');
    expect(at('dryrun', clock.announceAt)).toBe('observing');
    expect(at('warn', brownout.startsAt)).toBe('announced');
    expect(at('observe', brownout.startsAt)).toBe('observing');
  });

  test('a plan without block-new date or gate has neither entry', () => {
    const bare = planClock({ announceDate: '2027-01-01', retireDate: '2027-03-01', blockNewCallersFrom: null, gate: null });
    const { entries } = computeEnforcementTimeline({ action: 'deny', clock: bare, brownouts: [], gate: { kind: 'no-gate', cutInForce: false, cutFrom: bare.retireAt } }, dayStart('2027-01-10'));
    expect(entries.map((e) => e.kind)).toEqual(['announce', 'retire', 'cut']);
  });
});
