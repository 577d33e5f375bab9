import { describe, expect, test } from 'vitest';
import type { AlertContext, AlertMetering, AlertPlan } from '../../server/alerts/alert-context.js';
import { ALERT_RULES, type AlertRuleId } from '../../server/alerts/alert-rules.js';
import type { PlanStatus } from '../../server/analysis/compute-plan-status.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';
import type { NewLegacyCaller } from '../../server/store/records/new-legacy-callers.js';
import type { ProbeRecord } from '../../server/store/records/probe-record.js';
import { computeFleetDrift } from '../../server/analysis/compute-fleet-drift.js';
import { computeGateState } from '../../server/analysis/compute-gate-state.js';
import { computeSidecarStates, type SidecarHeartbeatRow } from '../../server/analysis/compute-sidecar-states.js';
import { dayStart } from '../../server/analysis/plan-clock.js';

const NOW = Date.UTC(2027, 0, 15, 12, 0);
const RETIRE_DAY = Date.UTC(2027, 2, 1);
const MINUTE = 60_000;
const SETTINGS: AlertContext['settings'] = { approachingDays: [30, 7], noFlushMinutes: 5, refusalSpikeMinBlocked: 20, refusalSpikeFactor: 5 };

function plan(overrides: Partial<Omit<AlertPlan, 'status' | 'trend'>> & { status?: Partial<PlanStatus>; trend?: Partial<AlertPlan['trend']> } = {}): AlertPlan {
  const { status, trend, ...rest } = overrides;
  return {
    id: 1,
    name: 'Legacy sunset',
    scopeLabel: 'Legacy',
    retireDate: '2027-03-01',
    retireDay: RETIRE_DAY,
    targetShare: 0.01,
    currentShare: 0.2,
    action: 'observe',
    exemptions: [],
    gate: null,
    ...rest,
    status: { status: 'on-track', reason: 'Legacy share is 20.00% and falling.', projectedDate: RETIRE_DAY - 10 * DAY_MS, daysToRetire: 45, ...status },
    trend: { flat: false, significantDecrease: true, slopePerWeek: -0.02, weeks: 10, reason: 'falling', ...trend },
  };
}

function context(overrides: Partial<AlertContext> = {}): AlertContext {
  return {
    now: NOW,
    previousRunAt: NOW - 15 * MINUTE,
    pauses: [],
    plans: [],
    newLegacyCallers: [],
    legacyMeteredSince: NOW - 90 * DAY_MS,
    metering: { lastFlushAt: NOW - 1000, droppedEvents: 0, consecutiveFailures: 0, lastError: undefined, previousDroppedEvents: 0, watchingSince: NOW - DAY_MS },
    fleet: { expected: null, drift: false, nodes: [], down: [], probes: [], policyVersion: 0, sidecars: [] },
    refusals: { hourStart: Date.UTC(2027, 0, 15, 11), callers: [] },
    displayNames: new Map(),
    settings: SETTINGS,
    ...overrides,
  };
}

function probe(node: string, state: string, supportedVersions: string[]): ProbeRecord {
  return {
    id: 1,
    node,
    target: `http://${node}.test/mcp`,
    era: state === 'ready' ? 'modern' : null,
    state,
    evidenceClass: state === 'ready' ? 'MOD' : 'STOP',
    evidenceCode: state === 'ready' ? 'discover-result' : 'http-outage',
    detail: state === 'ready' ? 'DiscoverResult' : 'connection refused',
    version: state === 'ready' ? '2026-07-28' : null,
    supportedVersions,
    legacyAccepted: supportedVersions.includes('2025-11-25'),
    serverInfo: null,
    latencyMs: 3,
    at: NOW - MINUTE,
  };
}

function fleetOf(...probes: ProbeRecord[]): AlertContext['fleet'] {
  return { ...computeFleetDrift(probes), probes, policyVersion: 0, sidecars: [] };
}

function check(id: AlertRuleId, ctx: AlertContext) {
  const rule = ALERT_RULES.find((r) => r.id === id)!;
  return rule.check(ctx);
}
const subjects = (id: AlertRuleId, ctx: AlertContext) => check(id, ctx).map((f) => f.subject);

describe('the rule table', () => {
  test('every rule has a unique id, a severity, a description and a consecutive count', async () => {
    expect(ALERT_RULES.map((r) => r.id)).toEqual([
      'curve-flattened', 'projection-misses-retire-date', 'new-legacy-integration', 'retire-date-approaching', 'metering-loss', 'fleet-drift', 'fleet-node-unavailable',
      'exemption-expiring', 'gate-holding-near-backstop', 'refusal-spike', 'plan-paused',
    ]);
    for (const rule of ALERT_RULES) {
      expect(rule.description.length, rule.id).toBeGreaterThan(20);
      expect(rule.consecutive, rule.id).toBe(rule.id === 'curve-flattened' ? 2 : 1);
    }
  });

  test('no rule finds anything in a healthy context', async () => {
    const healthy = context({ plans: [plan()] });
    for (const rule of ALERT_RULES) expect(rule.check(healthy), rule.id).toEqual([]);
  });
});

describe('curve-flattened', () => {
  test.each<[string, AlertPlan, boolean]>([
    ['a flat trend above target', plan({ trend: { flat: true, significantDecrease: false, slopePerWeek: 0.0002 } }), true],
    ['a falling trend', plan(), false],
    ['a flat trend once the target is met', plan({ currentShare: 0.005, trend: { flat: true }, status: { status: 'met' } }), false],
    ['a flat trend with no traffic in the latest bucket', plan({ currentShare: null, trend: { flat: true } }), false],
  ])('%s → %s', (_name, p, fires) => {
    expect(subjects('curve-flattened', context({ plans: [p] }))).toEqual(fires ? ['plan:1'] : []);
  });

  test('the summary states the share, the slope and the target', async () => {
    const [found] = check('curve-flattened', context({ plans: [plan({ trend: { flat: true, slopePerWeek: 0.0002 } })] }));
    expect(found?.summary).toBe('Plan "Legacy sunset": Legacy share has stopped falling at 20.00% (0.02 pp/week), above the 1.00% target');
    expect(found?.details).toMatchObject({ planId: 1, currentShare: 0.2, targetShare: 0.01, slopePerWeek: 0.0002 });
  });
});

describe('projection-misses-retire-date', () => {
  test.each<[string, Partial<PlanStatus>, boolean]>([
    ['off-track with no projection', { status: 'off-track', projectedDate: null }, true],
    ['off-track, projected after the retire date', { status: 'off-track', projectedDate: RETIRE_DAY + 40 * DAY_MS }, true],
    ['at-risk, projected a few days late', { status: 'at-risk', projectedDate: RETIRE_DAY + 5 * DAY_MS }, true],
    ['at-risk only because the decline is not yet significant', { status: 'at-risk', projectedDate: RETIRE_DAY - 5 * DAY_MS }, false],
    ['on-track', { status: 'on-track', projectedDate: RETIRE_DAY - 5 * DAY_MS }, false],
    ['unknown', { status: 'unknown', projectedDate: null }, false],
    ['met', { status: 'met', projectedDate: NOW }, false],
  ])('%s → %s', (_name, status, fires) => {
    expect(subjects('projection-misses-retire-date', context({ plans: [plan({ status })] }))).toEqual(fires ? ['plan:1'] : []);
  });

  test('the summary carries the status and its reason; details the projected date as ISO', async () => {
    const [found] = check('projection-misses-retire-date', context({ plans: [plan({ status: { status: 'off-track', reason: 'Too slow.', projectedDate: RETIRE_DAY + 40 * DAY_MS } })] }));
    expect(found?.summary).toBe('Plan "Legacy sunset" is off-track: Too slow.');
    expect(found?.details).toMatchObject({ status: 'off-track', projectedDate: '2027-04-10T00:00:00.000Z' });
  });
});

describe('new-legacy-integration', () => {
  const today = Date.UTC(2027, 0, 15);
  const caller = (integration: string, firstDay: number, extra: Partial<NewLegacyCaller> = {}): NewLegacyCaller => ({ integration, firstDay, displayName: null, clientInfoName: null, ...extra });

  test.each<[string, NewLegacyCaller, boolean]>([
    ['first served today', caller('tok_a', today), true],
    ['first served six days ago', caller('tok_a', today - 6 * DAY_MS), true],
    ['first served seven days ago', caller('tok_a', today - 7 * DAY_MS), false],
    ['anonymous callers cannot be phoned', caller('anonymous', today), false],
    ['callers past the cap are folded into other', caller('other', today), false],
    ['a stdio caller named by the operator', caller('stdio:cursor', today), true],
  ])('%s → %s', (_name, c, fires) => {
    expect(subjects('new-legacy-integration', context({ newLegacyCallers: [c] }))).toEqual(fires ? [`integration:${c.integration}`] : []);
  });

  test('callers there since the first metered day are the installed base, not news', async () => {
    expect(subjects('new-legacy-integration', context({ newLegacyCallers: [caller('tok_a', today)], legacyMeteredSince: today }))).toEqual([]);
    expect(subjects('new-legacy-integration', context({ newLegacyCallers: [caller('tok_a', today)], legacyMeteredSince: null }))).toEqual([]);
  });

  test('the summary names the caller, its claim as a claim, and the day', async () => {
    const [found] = check('new-legacy-integration', context({ newLegacyCallers: [caller('tok_a', today, { displayName: 'Billing bot', clientInfoName: 'billing' })] }));
    expect(found?.summary).toBe('New legacy caller Billing bot (claims to be "billing"): first served legacy work on 2027-01-15');
    expect(found?.details).toMatchObject({ integration: 'tok_a', firstLegacyDay: '2027-01-15' });
  });
});

describe('retire-date-approaching', () => {
  const at = (now: number, p: AlertPlan = plan()) => subjects('retire-date-approaching', context({ now, plans: [p] }));

  test.each<[string, number, string[]]>([
    ['31 days before', RETIRE_DAY - 31 * DAY_MS, []],
    ['just over 30 days before', RETIRE_DAY - 30 * DAY_MS - 1, []],
    ['exactly 30 days before', RETIRE_DAY - 30 * DAY_MS, ['plan:1:T-30']],
    ['8 days before', RETIRE_DAY - 8 * DAY_MS, ['plan:1:T-30']],
    ['just over 7 days before', RETIRE_DAY - 7 * DAY_MS - 1, ['plan:1:T-30']],
    ['exactly 7 days before', RETIRE_DAY - 7 * DAY_MS, ['plan:1:T-30', 'plan:1:T-7']],
    ['one millisecond before', RETIRE_DAY - 1, ['plan:1:T-30', 'plan:1:T-7']],
    ['on the retire date', RETIRE_DAY, []],
    ['after the retire date', RETIRE_DAY + 3 * DAY_MS, []],
  ])('%s → %j', (_name, now, expected) => {
    expect(at(now)).toEqual(expected);
  });

  test('not while the share is at or below target, or unmeasured', async () => {
    expect(at(RETIRE_DAY - DAY_MS, plan({ currentShare: 0.01 }))).toEqual([]);
    expect(at(RETIRE_DAY - DAY_MS, plan({ currentShare: null }))).toEqual([]);
  });

  test('thresholds come from the settings', async () => {
    const ctx = context({ now: RETIRE_DAY - 2 * DAY_MS, plans: [plan()], settings: { ...SETTINGS, approachingDays: [3, 14, 3] } });
    const found = check('retire-date-approaching', ctx);
    expect(found.map((f) => f.subject)).toEqual(['plan:1:T-14', 'plan:1:T-3']);
    expect(found[1]?.summary).toBe('Plan "Legacy sunset" retires on 2027-03-01, in 2 days, with Legacy share still at 20.00%, above the 1.00% target');
  });
});

describe('metering-loss', () => {
  const metering = (overrides: Partial<AlertMetering>) => context({ metering: { ...context().metering!, ...overrides } });

  test.each<[string, Partial<AlertMetering>, boolean]>([
    ['healthy', {}, false],
    ['dropped events grew since the last evaluation', { droppedEvents: 12, previousDroppedEvents: 5 }, true],
    ['dropped events unchanged since the last evaluation', { droppedEvents: 12, previousDroppedEvents: 12 }, false],
    ['dropped events at the first evaluation ever', { droppedEvents: 3, previousDroppedEvents: null }, true],
    ['a restart reset the counter, and it grew again', { droppedEvents: 2, previousDroppedEvents: 40 }, true],
    ['a restart reset the counter to zero', { droppedEvents: 0, previousDroppedEvents: 40 }, false],
    ['one failed flush in a row', { consecutiveFailures: 1, lastError: 'database is locked' }, true],
    ['no flush for 5 minutes', { lastFlushAt: NOW - 5 * MINUTE }, true],
    ['no flush for just under 5 minutes', { lastFlushAt: NOW - 5 * MINUTE + 1 }, false],
    ['no flush yet, watching for 6 minutes', { lastFlushAt: undefined, watchingSince: NOW - 6 * MINUTE }, true],
    ['no flush yet, watching for 1 minute', { lastFlushAt: undefined, watchingSince: NOW - MINUTE }, false],
  ])('%s → %s', (_name, m, fires) => {
    expect(subjects('metering-loss', metering(m))).toEqual(fires ? ['metering'] : []);
  });

  test('a process that meters nothing has no metering to judge, however long since it started', async () => {
    expect(subjects('metering-loss', context({ metering: null }))).toEqual([]);
  });

  test('the summary lists every problem at once', async () => {
    const [found] = check('metering-loss', metering({ droppedEvents: 30, previousDroppedEvents: 10, consecutiveFailures: 3, lastError: 'SQLITE_FULL', lastFlushAt: NOW - 12 * MINUTE }));
    expect(found?.summary).toBe('Metering is losing data: 20 events dropped since the last check; 3 consecutive failed flushes (SQLITE_FULL); no flush for 12 minutes');
    expect(found?.details).toMatchObject({ droppedEvents: 30, newlyDropped: 20, consecutiveFailures: 3, lastError: 'SQLITE_FULL', minutesSinceFlush: 12 });
  });
});

describe('fleet rules', () => {
  test('fleet-drift fires when ready nodes serve different sets, naming the odd ones', async () => {
    const fleet = fleetOf(probe('a', 'ready', ['2026-07-28']), probe('b', 'ready', ['2025-11-25', '2026-07-28']), probe('c', 'ready', ['2026-07-28']));
    const findings = check('fleet-drift', context({ fleet }));
    expect(findings.map((f) => f.subject)).toEqual(['fleet']);
    expect(findings[0]!.summary).toBe('The fleet is not uniform: most nodes serve 2026-07-28, but b serves 2025-11-25, 2026-07-28');
  });

  test('fleet-drift stays quiet for a uniform fleet, and does not count a node that is down', async () => {
    expect(check('fleet-drift', context({ fleet: fleetOf(probe('a', 'ready', ['2026-07-28']), probe('b', 'ready', ['2026-07-28'])) }))).toEqual([]);
    expect(check('fleet-drift', context({ fleet: fleetOf(probe('a', 'ready', ['2026-07-28']), probe('b', 'unavailable', [])) }))).toEqual([]);
  });

  describe('a sidecar on an older policy', () => {
    const CHANGED_AT = NOW - 10 * MINUTE;
    const sidecar = (node: string, policyVersion: number, lastFlushAt: number): SidecarHeartbeatRow => ({ node, kind: 'serve', policyVersion, lastFlushAt });
    const fleetWith = (...rows: SidecarHeartbeatRow[]): AlertContext['fleet'] => ({ ...fleetOf(), policyVersion: 4, sidecars: computeSidecarStates(rows, { version: 4, changedAt: CHANGED_AT }, NOW) });

    test('fleet-drift fires for it, subject node:<name>, naming both versions', async () => {
      const findings = check('fleet-drift', context({ fleet: fleetWith(sidecar('edge-1', 4, NOW - 1000), sidecar('edge-2', 3, NOW - 1000)) }));
      expect(findings.map((f) => f.subject)).toEqual(['node:edge-2']);
      expect(findings[0]!.summary).toBe('Sidecar edge-2 (serve) still runs policy version 3 at its flush of 2027-01-15T11:59:59.000Z; the stored policy is at version 4');
      expect(findings[0]!.details).toMatchObject({ node: 'edge-2', policyVersion: 3, storedPolicyVersion: 4 });
    });

    test('near miss: a flush under the old version within a minute of the change is not lagging', async () => {
      expect(check('fleet-drift', context({ fleet: fleetWith(sidecar('edge-2', 3, CHANGED_AT + MINUTE)) }))).toEqual([]);
      expect(subjects('fleet-drift', context({ fleet: fleetWith(sidecar('edge-2', 3, CHANGED_AT + MINUTE + 1)) }))).toEqual(['node:edge-2']);
    });

    test('beside a version-set drift, both are reported', async () => {
      const fleet = { ...fleetWith(sidecar('edge-2', 3, NOW)), ...computeFleetDrift([probe('a', 'ready', ['2026-07-28']), probe('b', 'ready', ['2025-11-25'])]) };
      expect(subjects('fleet-drift', context({ fleet }))).toEqual(['fleet', 'node:edge-2']);
    });
  });

  test('fleet-node-unavailable fires once per node that is not ready', async () => {
    const fleet = fleetOf(probe('a', 'ready', ['2026-07-28']), probe('b', 'unavailable', []), probe('c', 'auth-required', []));
    const findings = check('fleet-node-unavailable', context({ fleet }));
    expect(findings.map((f) => f.subject)).toEqual(['node:b', 'node:c']);
    expect(findings[0]!.summary).toBe('Fleet node b is unavailable at its latest check: connection refused');
  });
});

describe('exemption-expiring', () => {
  const exempt = (integration: string, until: string) => ({ integration, until, note: null });
  const at = (now: number, p: AlertPlan) => subjects('exemption-expiring', context({ now, plans: [p] }));

  test.each<[string, string, number, boolean]>([
    ['lapses in six and a half days', '2027-01-21', NOW, true],
    ['lapses in exactly seven days', '2027-01-21', Date.UTC(2027, 0, 15), true],
    ['lapses in seven days and a millisecond', '2027-01-21', Date.UTC(2027, 0, 15) - 1, false],
    ['lapses in seven and a half days', '2027-01-22', NOW, false],
    ['its last day is today', '2027-01-15', NOW, true],
    ['it lapsed at midnight', '2027-01-14', NOW, false],
  ])('%s → %s', (_name, until, now, fires) => {
    expect(at(now, plan({ action: 'deny', exemptions: [exempt('tok_a', until)] }))).toEqual(fires ? ['plan:1:exemption:tok_a'] : []);
  });

  test('not for a plan that only observes; for dryrun, warn and deny', async () => {
    const exemptions = [exempt('tok_a', '2027-01-20')];
    expect(at(NOW, plan({ action: 'observe', exemptions }))).toEqual([]);
    for (const action of ['dryrun', 'warn', 'deny'] as const) expect(at(NOW, plan({ action, exemptions })), action).toEqual(['plan:1:exemption:tok_a']);
  });

  test('one alert per plan and integration, naming the caller and the last day', async () => {
    const plans = [
      plan({ action: 'deny', exemptions: [exempt('tok_a', '2027-01-20'), exempt('tok_b', '2027-03-01')] }),
      plan({ id: 2, name: 'Drop http+sse', action: 'warn', exemptions: [exempt('tok_a', '2027-01-16')] }),
    ];
    const found = check('exemption-expiring', context({ plans, displayNames: new Map([['tok_a', 'Billing bot']]) }));
    expect(found.map((f) => f.subject)).toEqual(['plan:1:exemption:tok_a', 'plan:2:exemption:tok_a']);
    expect(found[0]!.summary).toBe('Plan "Legacy sunset" (deny): the exemption of Billing bot (tok_a) ends after 2027-01-20, in 6 days');
    expect(found[1]!.details).toMatchObject({ planId: 2, integration: 'tok_a', until: '2027-01-16', endsAt: '2027-01-17T00:00:00.000Z' });
  });
});

describe('gate-holding-near-backstop', () => {
  const TODAY = Date.UTC(2027, 0, 15);
  /** A plan whose gate is judged by the real gate computation at `now`. */
  function gated(options: { retireDate: string; backstopDate: string; now?: number; lastUse?: [string, number][]; share?: number | null; maxShare?: number | null }): AlertPlan {
    const { retireDate, backstopDate, now = NOW, maxShare = null } = options;
    const state = computeGateState(
      { retireAt: dayStart(retireDate), backstopAt: dayStart(backstopDate), maxShare, quietDays: 30, exemptions: [], lastUse: new Map(options.lastUse ?? []), share: options.share ?? null },
      now,
    );
    return plan({ action: 'deny', retireDate, retireDay: dayStart(retireDate), gate: { backstopDate, backstopAt: dayStart(backstopDate), maxShare, quietDays: 30, state } });
  }
  const at = (p: AlertPlan, now = NOW) => subjects('gate-holding-near-backstop', context({ now, plans: [p] }));
  const recent: [string, number][] = [['tok_a', TODAY - DAY_MS]];

  test.each<[string, AlertPlan, number, boolean]>([
    ['holding, backstop in ten days', gated({ retireDate: '2027-01-01', backstopDate: '2027-01-25', lastUse: recent }), NOW, true],
    ['holding, backstop in exactly fourteen days', gated({ retireDate: '2027-01-01', backstopDate: '2027-01-29', lastUse: recent, now: TODAY }), TODAY, true],
    ['holding, backstop in fourteen days and a millisecond', gated({ retireDate: '2027-01-01', backstopDate: '2027-01-29', lastUse: recent, now: TODAY - 1 }), TODAY - 1, false],
    ['holding, backstop in a month', gated({ retireDate: '2027-01-01', backstopDate: '2027-02-15', lastUse: recent }), NOW, false],
    ['open: the scope went quiet', gated({ retireDate: '2027-01-01', backstopDate: '2027-01-25', lastUse: [['tok_a', TODAY - 40 * DAY_MS]] }), NOW, false],
    ['before the retire date, with a caller that would hold it', gated({ retireDate: '2027-01-20', backstopDate: '2027-01-25', lastUse: recent }), NOW, true],
    ['before the retire date, quiet', gated({ retireDate: '2027-01-20', backstopDate: '2027-01-25' }), NOW, false],
    ['holding on the share alone', gated({ retireDate: '2027-01-01', backstopDate: '2027-01-25', share: 0.03, maxShare: 0.01 }), NOW, true],
    ['the backstop has passed', gated({ retireDate: '2027-01-01', backstopDate: '2027-01-10', lastUse: recent }), NOW, false],
  ])('%s → %s', (_name, p, now, fires) => {
    expect(at(p, now)).toEqual(fires ? ['plan:1'] : []);
  });

  test('a plan without a gate never fires', async () => {
    expect(at(plan({ action: 'deny', gate: null }))).toEqual([]);
  });

  test('the summary names the holding callers, five at most, and the share', async () => {
    const lastUse: [string, number][] = ['tok_a', 'tok_b', 'tok_c', 'tok_d', 'tok_e', 'tok_f', 'tok_g'].map((k, i) => [k, TODAY - i * DAY_MS]);
    const p = gated({ retireDate: '2027-01-01', backstopDate: '2027-01-25', lastUse, share: 0.03, maxShare: 0.01 });
    const [found] = check('gate-holding-near-backstop', context({ plans: [p], displayNames: new Map([['tok_a', 'Billing bot']]) }));
    expect(found?.summary).toBe(
      'Plan "Legacy sunset": the gate still holds the cut 10 days before its backstop on 2027-01-25: Billing bot (tok_a), tok_b, tok_c, tok_d, tok_e and 2 more used the scope in the last 30 days; the share is above the gate\'s 1.00% maximum',
    );
    expect(found?.details).toMatchObject({ gate: 'holding', shareAboveMax: true, maxShare: 0.01, backstopDate: '2027-01-25' });
    expect((found?.details.holdingCallers as unknown[]).length).toBe(7);
    expect((found?.details.holdingCallers as unknown[])[0]).toEqual({ integration: 'tok_a', displayName: 'Billing bot', lastUsedDay: '2027-01-15' });
  });
});

describe('refusal-spike', () => {
  const HOUR = Date.UTC(2027, 0, 15, 11);
  const refusals = (...callers: [string, number, number][]) => ({ hourStart: HOUR, callers: callers.map(([integration, inHour, dayBefore]) => ({ integration, displayName: null, inHour, dayBefore })) });
  const at = (r: AlertContext['refusals'], settings: Partial<AlertContext['settings']> = {}) => subjects('refusal-spike', context({ refusals: r, settings: { ...SETTINGS, ...settings } }));

  test.each<[string, number, number, boolean]>([
    ['20 refused, none the day before', 20, 0, true],
    ['19 refused, none the day before', 19, 0, false],
    ['100 refused against a mean of 20 an hour', 100, 480, true],
    ['99 refused against a mean of 20 an hour', 99, 480, false],
    ['none refused', 0, 480, false],
  ])('%s → %s', (_name, inHour, dayBefore, fires) => {
    expect(at(refusals(['tok_a', inHour, dayBefore]))).toEqual(fires ? ['integration:tok_a'] : []);
  });

  test('not for anonymous or overflowed callers', async () => {
    expect(at(refusals(['anonymous', 500, 0], ['other', 500, 0]))).toEqual([]);
  });

  test('the thresholds come from the settings', async () => {
    expect(at(refusals(['tok_a', 5, 0]), { refusalSpikeMinBlocked: 5 })).toEqual(['integration:tok_a']);
    expect(at(refusals(['tok_a', 100, 480]), { refusalSpikeFactor: 6 })).toEqual([]);
  });

  test('the summary states the hour, the count and the baseline', async () => {
    const r = { hourStart: HOUR, callers: [{ integration: 'tok_a', displayName: 'Billing bot', inHour: 240, dayBefore: 84 }] };
    const [found] = check('refusal-spike', context({ refusals: r }));
    expect(found?.summary).toBe('Billing bot (tok_a) had 240 requests refused by a plan in the hour from 11:00 UTC, against 3.5 an hour over the 24 hours before');
    expect(found?.details).toMatchObject({ blocked: 240, baselineHourlyMean: 3.5, hourStart: '2027-01-15T11:00:00.000Z', minBlocked: 20, factor: 5 });
  });
});

describe('plan-paused', () => {
  const pause = (overrides: Partial<AlertContext['pauses'][number]> = {}): AlertContext['pauses'][number] => ({
    id: 4, planId: 1, planName: 'Legacy sunset', reason: 'partner caught in the brownout', pausedBy: 'ops', resumedBy: null,
    startedAt: NOW - 5 * MINUTE, endsAt: NOW + DAY_MS, resumedAt: null, ...overrides,
  });

  test('a pause in force is found, one alert per pause, in words that say who paused it, why and until when', () => {
    const [found] = check('plan-paused', context({ pauses: [pause()] }));
    expect(found).toMatchObject({ subject: 'pause:4', details: { planId: 1, reason: 'partner caught in the brownout', pausedBy: 'ops', resumedAt: null } });
    expect(found!.summary).toBe(`Plan "Legacy sunset" is paused until ${new Date(NOW + DAY_MS).toISOString()} by ops: partner caught in the brownout. It refuses nothing meanwhile; what it would refuse is counted as would-block.`);
    // Started long before the previous run, still in force: still found (the alert stays firing).
    expect(subjects('plan-paused', context({ pauses: [pause({ startedAt: NOW - 3 * DAY_MS })] }))).toEqual(['pause:4']);
  });

  test('a pause that ended is no longer found, so its alert resolves; unless it began and ended since the previous run', () => {
    const resumed = pause({ startedAt: NOW - 60 * MINUTE, resumedAt: NOW - MINUTE, resumedBy: 'pager' });
    expect(subjects('plan-paused', context({ pauses: [resumed] }))).toEqual([]);
    expect(subjects('plan-paused', context({ pauses: [pause({ startedAt: NOW - DAY_MS, endsAt: NOW })] }))).toEqual([]);
    // Never seen in force: told once, as over.
    const brief = pause({ startedAt: NOW - 10 * MINUTE, endsAt: NOW - 2 * MINUTE });
    const [found] = check('plan-paused', context({ pauses: [brief] }));
    expect(found!.summary).toBe(`Plan "Legacy sunset" was paused from ${new Date(NOW - 10 * MINUTE).toISOString()} to ${new Date(NOW - 2 * MINUTE).toISOString()} by ops: partner caught in the brownout`);
    // The next run has it ended before its previous run: nothing, and the alert resolves.
    expect(subjects('plan-paused', context({ pauses: [brief], previousRunAt: NOW, now: NOW + 15 * MINUTE }))).toEqual([]);
    // The first run of all has nothing to compare with: only pauses in force are told.
    expect(subjects('plan-paused', context({ pauses: [brief], previousRunAt: null }))).toEqual([]);
  });
});
