import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { DigestCallerInput, WeekEraUse } from '../../server/analysis/classify-digest-callers.js';
import { composeDigest as compose, type DigestInputs, type DigestPlanInput } from '../../server/analysis/compose-digest.js';
import { summarizeDigest } from '../../server/analysis/summarize-digest.js';

const DAY = 86_400_000;
const at = (date: string, time = '00:00:00') => Date.parse(`${date}T${time}Z`);
const NOW = at('2026-12-07', '09:00:00');
const period = { from: at('2026-12-01'), to: at('2026-12-08') };
const previous = { from: at('2026-11-24'), to: at('2026-12-01') };

const use = (requests: number, versions = ['2025-06-18']): WeekEraUse => ({ requests, versions, lastSeen: NOW - DAY });

function caller(integration: string, weeks: { last?: [number, number]; now?: [number, number] }, extra: Partial<DigestCallerInput> = {}): DigestCallerInput {
  const week = (pair: [number, number] | undefined) => ({ legacy: pair === undefined || pair[0] === 0 ? null : use(pair[0]), modern: pair === undefined || pair[1] === 0 ? null : use(pair[1], ['2026-07-28']) });
  return { integration, identifiable: true, displayName: null, owner: null, contact: null, thisWeek: week(weeks.now), lastWeek: week(weeks.last), everLegacy: (weeks.last?.[0] ?? 0) + (weeks.now?.[0] ?? 0) > 0, legacyPeople: null, ...extra };
}

function inputs(overrides: Partial<DigestInputs> = {}): DigestInputs {
  return {
    now: NOW,
    period,
    previous,
    share: { basis: 'work-requests', target: 0.01, thisWeek: { inScope: 30, served: 200 }, lastWeek: { inScope: 50, served: 200 }, trend: { kind: 'fitted', slopePerWeek: -0.05, significantDecrease: true, projectedDate: at('2027-01-04'), reason: 'Falling.' } },
    plans: [],
    callers: [],
    legacyPeople: { thisWeek: 0, lastWeek: 0 },
    top: 10,
    links: { dashboard: 'https://sunset.example/', print: 'https://sunset.example/digest.html' },
    ...overrides,
  };
}

/** The digest with its sentences, as the view loader answers it. */
function composeDigest(input: DigestInputs) {
  const digest = compose(input);
  return { ...digest, summary: summarizeDigest(digest) };
}

describe('composeDigest and summarizeDigest', () => {
  test('the share this week against the week before, in sentences too', () => {
    const digest = composeDigest(inputs());
    expect(digest.share).toMatchObject({ current: 0.15, previous: 0.25, legacyRequests: 30, servedRequests: 200 });
    expect(digest.share.change).toBeCloseTo(-0.1, 12);
    expect(digest.summary[0]).toBe('Week 2026-12-01 to 2026-12-07: legacy share of served work 15.00% (30 requests of 200; 25.00% the week before, −10.00 pp). Falling.');
    expect(digest.summary.at(-1)).toBe('Dashboard: https://sunset.example/ · Print view: https://sunset.example/digest.html');
  });

  test('a share that rose says so with its sign, and one on all requests says requests', () => {
    const digest = composeDigest(inputs({ share: { basis: 'all-requests', target: 0.02, thisWeek: { inScope: 60, served: 200 }, lastWeek: { inScope: 50, served: 200 }, trend: { kind: 'not-enough-data', slopePerWeek: null, significantDecrease: false, projectedDate: null, reason: 'No trend yet.' } } }));
    expect(digest.share).toMatchObject({ basis: 'all-requests', target: 0.02 });
    expect(digest.summary[0]).toBe('Week 2026-12-01 to 2026-12-07: legacy share of served requests 30.00% (60 requests of 200; 25.00% the week before, +5.00 pp). No trend yet.');
    const flat = composeDigest(inputs({ share: { ...inputs().share, lastWeek: { inScope: 30, served: 200 } } }));
    expect(flat.summary[0]).toContain('15.00% the week before, 0.00 pp)');
  });

  test('nothing served: no share and no change, said as such', () => {
    const digest = composeDigest(inputs({ share: { basis: 'work-requests', target: 0.01, thisWeek: { inScope: 0, served: 0 }, lastWeek: { inScope: 0, served: 0 }, trend: { kind: 'not-enough-data', slopePerWeek: null, significantDecrease: false, projectedDate: null, reason: 'No trend yet.' } } }));
    expect(digest.share).toMatchObject({ current: null, previous: null, change: null });
    expect(digest.summary[0]).toBe('Week 2026-12-01 to 2026-12-07: no legacy-era work was measured (nothing served). No trend yet.');
    expect(digest.summary).toContain('No retirement plan yet.');
    expect(digest.summary).toContain('No identifiable caller sent legacy work this week.');
  });

  test('who moved, who started, who went quiet, and who is left: week against week', () => {
    const digest = composeDigest(
      inputs({
        top: 2,
        callers: [
          caller('moved-from-legacy', { last: [40, 0], now: [0, 25] }, { displayName: 'Billing', owner: 'Billing team' }),
          caller('moved-from-migrating', { last: [10, 10], now: [0, 30] }),
          caller('started', { last: [20, 0], now: [15, 5] }),
          caller('quiet', { last: [9, 0] }),
          caller('still-legacy', { last: [60, 0], now: [70, 0] }, { owner: 'Data team', contact: 'data@example.com' }),
          caller('still-migrating', { last: [5, 5], now: [3, 50] }),
          caller('new-modern', { now: [0, 12] }),
          caller('moved-long-ago', { now: [0, 12] }, { everLegacy: true }),
          caller('anonymous', { last: [100, 0], now: [0, 0] }, { identifiable: false }),
          caller('other', { now: [12, 0] }, { identifiable: false }),
        ],
      }),
    );
    const keys = (list: { integration: string }[]) => list.map((c) => c.integration);
    expect(keys(digest.callers.moved)).toEqual(['moved-from-legacy', 'moved-from-migrating']);
    expect(digest.callers.moved[0]).toMatchObject({ displayName: 'Billing', owner: 'Billing team', migration: 'moved', legacyRequests: 0, modernRequests: 25, legacyVersions: ['2025-06-18'] });
    expect(keys(digest.callers.startedMigrating)).toEqual(['started']);
    expect(keys(digest.callers.wentQuiet)).toEqual(['quiet']);
    // The largest first; the top two named, the third counted.
    expect(digest.callers.remaining.map((c) => [c.integration, c.legacyRequests, c.migration])).toEqual([
      ['still-legacy', 70, 'legacy-only'],
      ['started', 15, 'migrating'],
    ]);
    expect(digest.callers.remainingCount).toBe(3);
    expect(digest.callers.legacy).toEqual({ identifiable: 88, unknown: 12, total: 100, people: { thisWeek: 0, lastWeek: 0 } });
    expect(digest.callers.remaining[0]!.shareOfLegacy).toBe(0.7);
    expect(digest.summary).toContain('Moved this week: Billing (moved-from-legacy), moved-from-migrating.');
    expect(digest.summary).toContain('Started migrating: started.');
    expect(digest.summary).toContain('Went quiet (no traffic this week): quiet.');
    expect(digest.summary).toContain('Largest remaining identifiable callers: still-legacy [Data team] 70 requests (70.00%); started 15 requests (15.00%) and 1 more.');
    expect(digest.summary).toContain('Unknown installed base: 12 legacy requests (12.00% of legacy) from callers nobody can phone.');
  });

  test('the remaining callers carry the people behind their legacy work, and the split the distinct people week on week; sentences name people only where known', () => {
    const digest = composeDigest(
      inputs({
        callers: [
          caller('desk', { last: [30, 0], now: [40, 10] }, { legacyPeople: 12 }),
          caller('reports', { last: [20, 0], now: [25, 0] }, { legacyPeople: 1 }),
          caller('nightly', { last: [10, 0], now: [30, 0] }),
          caller('anonymous', { now: [5, 0] }, { identifiable: false }),
        ],
        // Distinct over every caller: one person behind desk and reports counts once.
        legacyPeople: { thisWeek: 12, lastWeek: 15 },
      }),
    );
    expect(digest.callers.remaining.map((c) => [c.integration, c.legacyRequests, c.legacyPeople])).toEqual([
      ['desk', 40, 12],
      ['nightly', 30, null],
      ['reports', 25, 1],
    ]);
    expect(digest.callers.legacy).toEqual({ identifiable: 95, unknown: 5, total: 100, people: { thisWeek: 12, lastWeek: 15 } });
    expect(digest.summary).toContain('Largest remaining identifiable callers: desk 40 requests from 12 people (40.00%); nightly 30 requests (30.00%); reports 25 requests from 1 person (25.00%).');
    expect(digest.summary).toContain('People served legacy work: 12 people this week, 15 the week before (distinct, as verified credentials named them).');

    // Where no credential named anyone, in either week, people go unsaid.
    const nobody = composeDigest(inputs({ callers: [caller('nightly', { now: [30, 0] })] }));
    expect(nobody.callers.legacy.people).toEqual({ thisWeek: 0, lastWeek: 0 });
    expect(nobody.summary.some((line) => /people|person/.test(line))).toBe(false);
    // Nobody this week after somebody the week before is news.
    const gone = composeDigest(inputs({ callers: [caller('nightly', { now: [30, 0] })], legacyPeople: { thisWeek: 0, lastWeek: 1 } }));
    expect(gone.summary).toContain('People served legacy work: 0 people this week, 1 the week before (distinct, as verified credentials named them).');
  });

  test('each plan with its status, what is in force and the next stage', () => {
    const plan: DigestPlanInput = {
      id: 3,
      name: 'Retire legacy',
      scopeLabel: 'Legacy',
      action: 'deny',
      phase: 'brownout',
      status: 'at-risk',
      statusReason: 'Close.',
      currentShare: 0.15,
      targetShare: 0.01,
      retireDate: '2027-03-01',
      pause: null,
      timeline: [
        { kind: 'announce', at: at('2026-11-01'), endsAt: null, state: 'in-force', note: null },
        { kind: 'brownout', at: at('2026-11-20'), endsAt: at('2026-11-21'), state: 'past', note: 'first' },
        { kind: 'brownout', at: at('2026-12-07'), endsAt: at('2026-12-07', '12:00:00'), state: 'in-force', note: 'second' },
        { kind: 'retire', at: at('2027-03-01'), endsAt: null, state: 'upcoming', note: null },
        { kind: 'brownout', at: at('2027-01-10'), endsAt: at('2027-01-11'), state: 'upcoming', note: 'third' },
      ],
    };
    const [shown] = composeDigest(inputs({ plans: [plan, { ...plan, id: 4, name: 'Paused one', phase: 'paused', pause: { reason: 'Partner', endsAt: at('2026-12-08') }, timeline: [] }] })).plans;
    expect(shown!.inForce).toEqual([{ kind: 'brownout', at: at('2026-12-07'), endsAt: at('2026-12-07', '12:00:00'), note: 'second' }]);
    expect(shown!.nextStage).toEqual({ kind: 'brownout', at: at('2027-01-10'), endsAt: at('2027-01-11'), note: 'third' });
    const digest = composeDigest(inputs({ plans: [plan, { ...plan, id: 4, name: 'Paused one', phase: 'paused', pause: { reason: 'Partner', endsAt: at('2026-12-08') }, timeline: [] }] }));
    expect(digest.summary).toContain('Plan "Retire legacy" (Legacy, deny): at-risk, phase brownout, retire date 2027-03-01, next: brownout on 2027-01-10.');
    // A plan that observes refuses nothing: its brownouts are not stages to come, its retire date is.
    const [observed] = composeDigest(inputs({ plans: [{ ...plan, action: 'observe', phase: 'observing' }] })).plans;
    expect(observed!.inForce).toEqual([]);
    expect(observed!.nextStage).toEqual({ kind: 'retire', at: at('2027-03-01'), endsAt: null, note: null });
    expect(digest.summary).toContain('Plan "Paused one" (Legacy, deny): at-risk, phase paused, retire date 2027-03-01, no stage left to come. Paused until 2026-12-08 00:00 UTC: Partner.');
  });

  test('invariants hold for any callers', () => {
    const week = fc.record({ legacy: fc.option(fc.record({ requests: fc.integer({ min: 1, max: 1000 }), versions: fc.constant(['v']), lastSeen: fc.constant(NOW) }), { nil: null }), modern: fc.option(fc.record({ requests: fc.integer({ min: 1, max: 1000 }), versions: fc.constant(['m']), lastSeen: fc.constant(NOW) }), { nil: null }) });
    const callerArb = fc.record({ identifiable: fc.boolean(), thisWeek: week, lastWeek: week, everLegacy: fc.boolean(), legacyPeople: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }) });
    fc.assert(
      fc.property(fc.array(callerArb, { maxLength: 30 }), fc.integer({ min: 0, max: 8 }), (drafts, top) => {
        const callers = drafts.map((d, i) => ({ ...d, integration: `c${i}`, displayName: null, owner: null, contact: null }));
        const { callers: out } = composeDigest(inputs({ callers, top }));
        const lists = [out.moved, out.startedMigrating, out.wentQuiet].map((l) => l.map((c) => c.integration));
        const all = lists.flat();
        expect(new Set(all).size).toBe(all.length);
        const identifiable = new Set(callers.filter((c) => c.identifiable).map((c) => c.integration));
        for (const key of [...all, ...out.remaining.map((c) => c.integration)]) expect(identifiable.has(key)).toBe(true);
        expect(out.remaining.length).toBe(Math.min(top, out.remainingCount));
        for (let i = 1; i < out.remaining.length; i += 1) expect(out.remaining[i - 1]!.legacyRequests).toBeGreaterThanOrEqual(out.remaining[i]!.legacyRequests);
        expect(out.remaining.reduce((sum, c) => sum + c.shareOfLegacy, 0)).toBeLessThanOrEqual(1 + 1e-9);
        // Each remaining caller's people are its own, as given.
        for (const c of out.remaining) expect(c.legacyPeople).toBe(callers.find((x) => x.integration === c.integration)!.legacyPeople);
        expect(out.legacy.total).toBe(callers.reduce((sum, c) => sum + (c.thisWeek.legacy?.requests ?? 0), 0));
        // Moved means modern only this week, after legacy the week before.
        for (const c of out.moved) {
          const input = callers.find((x) => x.integration === c.integration)!;
          expect(input.thisWeek.legacy).toBeNull();
          expect(input.thisWeek.modern).not.toBeNull();
          expect(input.lastWeek.legacy).not.toBeNull();
        }
      }),
    );
  });
});
