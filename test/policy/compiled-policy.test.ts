import { describe, expect, test } from 'vitest';
import { compilePolicy, type PolicyPlanInput } from '../../server/policy/compile-policy.js';
import { EMPTY_POLICY, PASS } from '../../server/policy/compiled-policy.js';
import type { PolicyShape } from '../../server/protocol/policy-shape.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const at = (date: string, time = '00:00:00') => Date.parse(`${date}T${time}Z`);
const NOW = at('2026-11-30', '12:00:00');
const NEVER = Number.POSITIVE_INFINITY;

const LEGACY_HTTP: PolicyShape = { era: 'legacy', transport: 'streamable-http', version: '2025-06-18' };
const LEGACY_SSE: PolicyShape = { era: 'legacy', transport: 'http+sse', version: '2025-03-26' };
const LEGACY_SSE_OPEN: PolicyShape = { era: 'legacy', transport: 'http+sse', version: null };
const MODERN: PolicyShape = { era: 'modern', transport: 'streamable-http', version: '2026-07-28' };

function plan(overrides: Partial<PolicyPlanInput> = {}): PolicyPlanInput {
  return {
    id: 1,
    name: 'Retire the legacy era',
    scope: { kind: 'era', value: 'legacy' },
    action: 'deny',
    announceDate: '2026-10-01',
    retireDate: '2027-03-01',
    blockNewCallersFrom: null,
    gate: null,
    policyUrl: 'https://example.com/retire-legacy',
    brownouts: [],
    exemptions: [],
    cutFrom: at('2027-03-01'),
    knownCallers: new Set(),
    ...overrides,
  };
}

function compile(...plans: PolicyPlanInput[]) {
  return compilePolicy({ version: 7, plans, supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'] }, NOW);
}

describe('compilePolicy', () => {
  test('keeps only plans that do more than observe, in plan order, with the stored version', () => {
    const policy = compile(plan({ id: 1, action: 'observe' }), plan({ id: 2, action: 'warn' }), plan({ id: 3, action: 'dryrun' }));
    expect(policy.version).toBe(7);
    expect(policy.plans.map((p) => p.id)).toEqual([2, 3]);
    expect(policy.enforcing).toBe(true);
    expect(compile(plan({ action: 'observe' })).enforcing).toBe(false);
    expect(EMPTY_POLICY.enforcing).toBe(false);
  });

  test('a refusal names the versions still served: the era plan drops the legacy ones, a transport plan none', () => {
    expect(compile(plan()).plans[0]!.refusal.supported).toEqual(['2026-07-28']);
    expect(compile(plan({ scope: { kind: 'transport', value: 'http+sse' } })).plans[0]!.refusal.supported).toEqual(['2026-07-28', '2025-11-25', '2025-06-18']);
    expect(compile(plan({ scope: { kind: 'version', value: '2025-06-18' } })).plans[0]!.refusal.supported).toEqual(['2026-07-28', '2025-11-25']);
    // A cut of a transport that carries modern clients never names a modern version as still served.
    expect(compile(plan({ scope: { kind: 'transport', value: 'streamable-http' } })).plans[0]!.refusal.supported).toEqual(['2025-11-25', '2025-06-18']);
    expect(compile(plan({ scope: { kind: 'transport', value: 'stdio' } })).plans[0]!.refusal.supported).toEqual(['2025-11-25', '2025-06-18']);
  });
});

describe('CompiledPolicy.decide', () => {
  test('out of every plan\'s scope the shared PASS is answered, the very same object', () => {
    const policy = compile(plan({ cutFrom: NOW - DAY }));
    expect(policy.decide(MODERN, 'anonymous', NOW)).toBe(PASS);
    expect(EMPTY_POLICY.decide(LEGACY_HTTP, 'anonymous', NOW)).toBe(PASS);
    expect(compile(plan({ action: 'observe', cutFrom: NOW - DAY })).decide(LEGACY_HTTP, 'anonymous', NOW)).toBe(PASS);
  });

  test.each([
    { scope: { kind: 'era', value: 'legacy' } as const, inside: [LEGACY_HTTP, LEGACY_SSE, LEGACY_SSE_OPEN], outside: [MODERN] },
    { scope: { kind: 'transport', value: 'http+sse' } as const, inside: [LEGACY_SSE, LEGACY_SSE_OPEN], outside: [LEGACY_HTTP, MODERN] },
    { scope: { kind: 'version', value: '2025-06-18' } as const, inside: [LEGACY_HTTP], outside: [LEGACY_SSE, LEGACY_SSE_OPEN, MODERN] },
    { scope: { kind: 'version', value: '2026-07-28' } as const, inside: [MODERN], outside: [LEGACY_HTTP, LEGACY_SSE, LEGACY_SSE_OPEN] },
  ])('a $scope.kind plan ($scope.value) refuses after the cut exactly the shapes in its scope', ({ scope, inside, outside }) => {
    const policy = compile(plan({ scope, cutFrom: NOW - DAY }));
    for (const shape of inside) expect(policy.decide(shape, 'anonymous', NOW)).toMatchObject({ cause: 'cut', refusedBy: { id: 1 } });
    for (const shape of outside) expect(policy.decide(shape, 'anonymous', NOW)).toBe(PASS);
  });

  test('the cut refuses from cutFrom on, not a millisecond before', () => {
    const cutFrom = at('2026-12-15');
    const policy = compile(plan({ cutFrom }));
    expect(policy.decide(LEGACY_HTTP, 'anonymous', cutFrom - 1).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'anonymous', cutFrom)).toMatchObject({ cause: 'cut', refusedBy: { id: 1 }, wouldBlock: false });
  });

  test('a cut held past the retire date by the gate refuses from the held date, not the retire date', () => {
    const policy = compile(plan({ retireDate: '2026-11-01', cutFrom: at('2027-01-01') }));
    expect(policy.decide(LEGACY_HTTP, 'anonymous', NOW).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'anonymous', at('2027-01-01')).cause).toBe('cut');
  });

  test('an exemption holds through the last day of `until` and lapses at 00:00 UTC the day after', () => {
    const policy = compile(plan({ cutFrom: NOW - DAY, exemptions: [{ integration: 'partner-a', until: '2026-12-31' }] }));
    expect(policy.decide(LEGACY_HTTP, 'partner-a', at('2026-12-31', '23:59:59.999')).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'partner-a', at('2027-01-01')).cause).toBe('cut');
    expect(policy.decide(LEGACY_HTTP, 'partner-b', NOW).cause).toBe('cut');
  });

  test('an exempt caller passes a brownout and block-new as well as the cut', () => {
    const policy = compile(plan({
      blockNewCallersFrom: '2026-11-01',
      brownouts: [{ startsAt: NOW - HOUR, endsAt: NOW + HOUR }],
      exemptions: [{ integration: 'partner-a', until: '2026-12-31' }],
    }));
    expect(policy.decide(LEGACY_HTTP, 'partner-a', NOW).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'partner-b', NOW).refusedBy).not.toBeNull();
  });

  test('a brownout refuses in [start, end) and says when it ends', () => {
    const start = at('2026-12-02', '14:00:00');
    const end = at('2026-12-02', '16:00:00');
    const later = at('2026-12-09', '14:00:00');
    const policy = compile(plan({ brownouts: [{ startsAt: later, endsAt: later + HOUR }, { startsAt: start, endsAt: end }] }));
    expect(policy.decide(LEGACY_HTTP, 'anonymous', start - 1).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'anonymous', start)).toMatchObject({ cause: 'brownout', brownoutEndsAt: end });
    expect(policy.decide(LEGACY_HTTP, 'anonymous', end - 1)).toMatchObject({ cause: 'brownout', brownoutEndsAt: end });
    expect(policy.decide(LEGACY_HTTP, 'anonymous', end).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'anonymous', later + 1)).toMatchObject({ cause: 'brownout', brownoutEndsAt: later + HOUR });
    expect(policy.decide(LEGACY_HTTP, 'anonymous', later + HOUR).refusedBy).toBeNull();
  });

  test('overlapping brownouts refuse until the window that covers the instant ends', () => {
    const policy = compile(plan({ brownouts: [{ startsAt: NOW - 3 * HOUR, endsAt: NOW - HOUR }, { startsAt: NOW - 2 * HOUR, endsAt: NOW + HOUR }] }));
    expect(policy.decide(LEGACY_HTTP, 'anonymous', NOW)).toMatchObject({ cause: 'brownout', brownoutEndsAt: NOW + HOUR });
  });

  test('block-new refuses, from its date, callers with no served work in scope before it; known callers pass', () => {
    const policy = compile(plan({ blockNewCallersFrom: '2026-12-01', knownCallers: new Set(['partner-a']) }));
    expect(policy.decide(LEGACY_HTTP, 'newcomer', at('2026-11-30', '23:59:59.999')).refusedBy).toBeNull();
    expect(policy.decide(LEGACY_HTTP, 'newcomer', at('2026-12-01'))).toMatchObject({ cause: 'block-new', refusedBy: { id: 1 } });
    expect(policy.decide(LEGACY_HTTP, 'partner-a', at('2026-12-01')).refusedBy).toBeNull();
    expect(policy.decide(MODERN, 'newcomer', at('2026-12-01'))).toBe(PASS);
  });

  test('a name joined into a caller is decided as that caller: its exemption covers the name, and the name is as known as the caller', () => {
    const aliases = new Map([['tok_old', 'oauth:desk'], ['desk-gateway', 'oauth:desk']]);
    const exempt = compilePolicy({ version: 7, plans: [plan({ cutFrom: NOW - DAY, exemptions: [{ integration: 'oauth:desk', until: '2027-06-30' }] })], supportedVersions: null, aliases }, NOW);
    for (const name of ['oauth:desk', 'tok_old', 'desk-gateway']) expect(exempt.decide(LEGACY_HTTP, name, NOW).refusedBy).toBeNull();
    expect(exempt.decide(LEGACY_HTTP, 'tok_stranger', NOW).cause).toBe('cut');
    const blockNew = compilePolicy({ version: 7, plans: [plan({ blockNewCallersFrom: '2026-11-01', knownCallers: new Set(['oauth:desk']) })], supportedVersions: null, aliases }, NOW);
    expect(blockNew.decide(LEGACY_HTTP, 'tok_old', NOW).refusedBy).toBeNull();
    expect(blockNew.decide(LEGACY_HTTP, 'tok_stranger', NOW).cause).toBe('block-new');
  });

  test('a caller whose credential could not be checked in time is not refused as new, but is refused by a cut', () => {
    const blockNew = compile(plan({ blockNewCallersFrom: '2026-11-01', knownCallers: new Set(['partner-a']) }));
    expect(blockNew.decide(LEGACY_HTTP, 'tok_unchecked', NOW, true).refusedBy).toBeNull();
    expect(blockNew.decide(LEGACY_HTTP, 'tok_unchecked', NOW, false).cause).toBe('block-new');
    const cut = compile(plan({ cutFrom: NOW - DAY }));
    expect(cut.decide(LEGACY_HTTP, 'tok_unchecked', NOW, true).cause).toBe('cut');
  });

  test('after the cut a known caller is refused too', () => {
    const policy = compile(plan({ blockNewCallersFrom: '2026-11-01', knownCallers: new Set(['partner-a']), cutFrom: NOW - DAY }));
    expect(policy.decide(LEGACY_HTTP, 'partner-a', NOW).cause).toBe('cut');
  });

  test.each([
    { action: 'observe', refused: false, wouldBlock: false, announced: false },
    { action: 'dryrun', refused: false, wouldBlock: true, announced: false },
    { action: 'warn', refused: false, wouldBlock: false, announced: true },
    { action: 'deny', refused: true, wouldBlock: false, announced: true },
  ] as const)('after the cut, $action: refused $refused, would-block $wouldBlock, announced $announced', ({ action, refused, wouldBlock, announced }) => {
    const decision = compile(plan({ action, cutFrom: NOW - DAY })).decide(LEGACY_HTTP, 'anonymous', NOW);
    expect(decision.refusedBy !== null).toBe(refused);
    expect(decision.wouldBlock).toBe(wouldBlock);
    expect(decision.headers.length > 0).toBe(announced);
  });

  test('a paused deny plan refuses nothing until the pause ends: what it would refuse is would-block, and its headers stay', () => {
    const until = NOW + HOUR;
    const policy = compile(plan({ cutFrom: NOW - DAY, brownouts: [{ startsAt: NOW - HOUR, endsAt: NOW + 2 * HOUR }], pausedUntil: until }), plan({ id: 2, scope: { kind: 'transport', value: 'http+sse' }, cutFrom: NOW - DAY }));
    const paused = policy.decide(LEGACY_HTTP, 'anonymous', NOW);
    expect(paused).toMatchObject({ refusedBy: null, cause: null, wouldBlock: true });
    expect(paused.headers).toEqual(policy.plans[0]!.announceHeaders);
    expect(policy.decide(LEGACY_HTTP, 'anonymous', until - 1).refusedBy).toBeNull();
    // The pause ends at its instant, in the table already compiled: the cut is back.
    expect(policy.decide(LEGACY_HTTP, 'anonymous', until)).toMatchObject({ cause: 'cut', refusedBy: { id: 1 }, wouldBlock: false });
    // Another plan in scope is not paused with it: HTTP+SSE legacy traffic is still refused by plan 2.
    expect(policy.decide(LEGACY_SSE, 'anonymous', NOW)).toMatchObject({ cause: 'cut', refusedBy: { id: 2 } });
    expect(policy.pausedPlans(NOW).map((p) => p.id)).toEqual([1]);
    expect(policy.pausedPlans(until)).toEqual([]);
    // A paused plan marks nothing it would not refuse.
    expect(policy.decide(MODERN, 'anonymous', NOW)).toBe(PASS);
  });

  test('a pause holds an exempt caller as it was: passing, and not would-block', () => {
    const policy = compile(plan({ cutFrom: NOW - DAY, exemptions: [{ integration: 'partner-a', until: '2026-12-31' }], pausedUntil: NOW + HOUR }));
    expect(policy.decide(LEGACY_HTTP, 'partner-a', NOW).wouldBlock).toBe(false);
    expect(policy.decide(LEGACY_HTTP, 'partner-b', NOW).wouldBlock).toBe(true);
  });

  test('a dry run marks nothing it would not refuse', () => {
    const decision = compile(plan({ action: 'dryrun', cutFrom: NEVER })).decide(LEGACY_HTTP, 'anonymous', NOW);
    expect(decision).toBe(PASS);
  });

  test('announcement headers only from the announce date, 00:00 UTC', () => {
    const policy = compile(plan({ action: 'warn', announceDate: '2026-12-01', retireDate: '2027-03-01' }));
    expect(policy.decide(LEGACY_HTTP, 'anonymous', at('2026-12-01') - 1)).toBe(PASS);
    expect(policy.decide(LEGACY_HTTP, 'anonymous', at('2026-12-01')).headers).toEqual([
      'Deprecation', `@${at('2026-12-01') / 1000}`,
      'Sunset', 'Mon, 01 Mar 2027 00:00:00 GMT',
      'Link', '<https://example.com/retire-legacy>; rel="sunset"',
    ]);
  });

  test('a deny plan refuses with its own headers', () => {
    const decision = compile(plan({ cutFrom: NOW - DAY })).decide(LEGACY_HTTP, 'anonymous', NOW);
    expect(decision.headers).toEqual(decision.refusedBy!.announceHeaders);
    expect(decision.headers).toContain('Sunset');
  });

  describe('several plans', () => {
    const warnAll = plan({ id: 1, name: 'warn', action: 'warn', policyUrl: 'https://example.com/first', retireDate: '2027-06-01', cutFrom: at('2027-06-01') });
    const dryrunSse = plan({ id: 2, name: 'dry', action: 'dryrun', scope: { kind: 'transport', value: 'http+sse' }, cutFrom: NOW - DAY });
    const denySse = plan({ id: 3, name: 'deny', action: 'deny', scope: { kind: 'transport', value: 'http+sse' }, policyUrl: 'https://example.com/sse', cutFrom: NOW - DAY });

    test('a refusal wins over a dry run, whichever comes first', () => {
      for (const policy of [compile(dryrunSse, denySse), compile(denySse, dryrunSse)]) {
        const decision = policy.decide(LEGACY_SSE, 'anonymous', NOW);
        expect(decision.refusedBy?.id).toBe(3);
        expect(decision.wouldBlock).toBe(false);
      }
    });

    test('headers come from the first announcing plan in scope, and a dry run still marks would-block', () => {
      const decision = compile(warnAll, dryrunSse, plan({ id: 4, action: 'warn', policyUrl: 'https://example.com/second' })).decide(LEGACY_SSE, 'anonymous', NOW);
      expect(decision.refusedBy).toBeNull();
      expect(decision.wouldBlock).toBe(true);
      expect(decision.headers).toContain('<https://example.com/first>; rel="sunset"');
      expect(decision.headers).toContain('Tue, 01 Jun 2027 00:00:00 GMT');
    });

    test('a plan not yet announcing lends no headers: the next announcing one does', () => {
      const early = plan({ id: 1, action: 'warn', announceDate: '2027-01-01', policyUrl: 'https://example.com/later' });
      const decision = compile(early, plan({ id: 2, action: 'warn', policyUrl: 'https://example.com/now' })).decide(LEGACY_HTTP, 'anonymous', NOW);
      expect(decision.headers).toContain('<https://example.com/now>; rel="sunset"');
    });

    test('a plan whose scope the request is outside neither refuses nor announces it', () => {
      const decision = compile(denySse, warnAll).decide(LEGACY_HTTP, 'anonymous', NOW);
      expect(decision.refusedBy).toBeNull();
      expect(decision.headers).toContain('<https://example.com/first>; rel="sunset"');
      expect(compile(denySse).decide(MODERN, 'anonymous', NOW)).toBe(PASS);
    });
  });
});
