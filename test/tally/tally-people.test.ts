import { describe, expect, test } from 'vitest';
import { Tally, type TallyEntry } from '../../server/tally/tally.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
const DAY_START = Date.UTC(2026, 10, 30);

function entry(labels: Partial<TallyEntry['labels']> = {}, subject: string | null = 'alice'): TallyEntry {
  return {
    labels: { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18', method: 'tools/call', kind: 'request', outcome: 'served', integration: 'oauth:app', ...labels },
    integrationSource: 'oauth',
    clientInfo: undefined,
    claimMismatch: false,
    ...(subject === null ? {} : { subject }),
  };
}

describe('Tally: the people behind each caller', () => {
  test('a person is counted once per caller, UTC day and path, on served work only', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    tally.add(entry());
    tally.add(entry());
    tally.add(entry({ method: 'initialize' }, 'bob'));
    tally.add(entry({ outcome: 'blocked' }, 'carol'));
    tally.add(entry({ kind: 'notification', method: 'notifications/initialized' }, 'dave'));
    tally.add(entry({}, null));
    tally.add(entry({ era: 'modern', reason: 'modern-meta', version: '2026-07-28' }));
    tally.add(entry({}), T0 + 86_400_000);
    expect(tally.drain().people).toEqual([
      { day: DAY_START, integration: 'oauth:app', era: 'legacy', transport: 'streamable-http', version: '2025-06-18', subject: 'alice' },
      { day: DAY_START, integration: 'oauth:app', era: 'modern', transport: 'streamable-http', version: '2026-07-28', subject: 'alice' },
      { day: DAY_START + 86_400_000, integration: 'oauth:app', era: 'legacy', transport: 'streamable-http', version: '2025-06-18', subject: 'alice' },
    ]);
    // Handed over once: the next window starts empty, and a batch without people carries none.
    tally.add(entry({}, null));
    expect(tally.drain().people).toBeUndefined();
  });

  test('a modern request the legacy path answered makes its person a legacy user, as the share counts it', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    tally.add(entry({ era: 'modern', reason: 'modern-meta', version: '2026-07-28', outcome: 'served-as-legacy' }));
    expect(tally.drain().people?.map((p) => p.era)).toEqual(['legacy']);
  });

  test('people of a caller folded into `other` are not counted, and past maxPeople newcomers are counted as overflowed, not held', () => {
    const tally = new Tally({ node: 'n', now: () => T0, maxIntegrations: 1, maxPeople: 2 });
    tally.add(entry({}, 'p1'));
    tally.add(entry({ integration: 'oauth:second' }, 'p2'));
    tally.add(entry({}, 'p3'));
    tally.add(entry({}, 'p4'));
    tally.add(entry({}, 'p1'));
    expect(tally.drain().people?.map((p) => [p.integration, p.subject])).toEqual([
      ['oauth:app', 'p1'],
      ['oauth:app', 'p3'],
    ]);
    expect(tally.stats().overflowedPeople).toBe(1);
  });
});

describe('Tally: the unknown base by claimed client', () => {
  const anonymous = (labels: Partial<TallyEntry['labels']>, claim: { clientInfo?: { name: string; version: string }; userAgent?: string }): TallyEntry => ({
    ...entry({ integration: 'anonymous', ...labels }, null),
    integrationSource: 'anonymous',
    unnamed: true,
    clientInfo: claim.clientInfo,
    userAgent: claim.userAgent,
  });
  const desk = { clientInfo: { name: 'Desk Host', version: '1.2.0' } };

  test('a named caller\'s work describes nothing: only the unknown base is described', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    tally.add({ ...entry({}, null), clientInfo: { name: 'Desk Host', version: '1.2.0' }, userAgent: 'curl/8', unnamed: false });
    expect(tally.drain().claims).toBeUndefined();
  });

  test('counts served work of unnamed callers per day, era and claim, a modern request the legacy path answered as legacy', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    tally.add(anonymous({}, desk));
    tally.add(anonymous({}, desk));
    tally.add(anonymous({ era: 'modern', reason: 'modern-meta', version: '2026-07-28', outcome: 'served-as-legacy' }, desk));
    tally.add(anonymous({ method: 'initialize' }, desk));
    tally.add(anonymous({ outcome: 'blocked' }, desk));
    expect(tally.drain().claims).toEqual([{ day: DAY_START, node: 'n', era: 'legacy', kind: 'client-info', name: 'Desk Host', version: '1.2.0', count: 3 }]);
  });

  test('past maxClaims distinct claims, newcomers are counted as `other`, so made-up names cost bounded memory and rows', () => {
    const tally = new Tally({ node: 'n', now: () => T0, maxClaims: 2 });
    for (let i = 0; i < 50; i += 1) tally.add(anonymous({}, { userAgent: `bot-${i}` }));
    expect(tally.drain().claims?.map((c) => [c.name, c.count])).toEqual([
      ['bot-0', 1],
      ['bot-1', 1],
      ['other', 48],
    ]);
  });
});
