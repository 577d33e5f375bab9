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
