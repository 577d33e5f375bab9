import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CALLER_SOURCES } from '../../server/sidecar/identify-caller.js';
import { Tally, VERIFIED_CALLER_SOURCES, type TallyEntry } from '../../server/tally/tally.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
const MINUTE = 60_000;

function modernCall(overrides: Partial<TallyEntry['labels']> = {}, source = 'bearer-fingerprint'): TallyEntry {
  return {
    labels: { era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28', method: 'tools/call', kind: 'request', outcome: 'served', integration: 'tok_real', ...overrides },
    integrationSource: source,
    clientInfo: undefined,
    claimMismatch: false,
  };
}

function legacyCall(overrides: Partial<TallyEntry['labels']> = {}, source = 'bearer-fingerprint'): TallyEntry {
  return modernCall({ era: 'legacy', reason: 'session-header', version: '2025-06-18', ...overrides }, source);
}

/** Count per value of one label over the cells. */
function countsBy(cells: readonly TallyCell[], label: 'version' | 'method' | 'integration'): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const cell of cells) counts[cell[label]] = (counts[cell[label]] ?? 0) + cell.count;
  return counts;
}

const randomToken = () => `tok_${randomBytes(8).toString('hex')}`;

describe('caps fold the unknown, never the known (invariant 11)', () => {
  test('a flood of junk `_meta` versions past the cap never turns the real revisions into other', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    for (let i = 0; i < 100; i += 1) tally.add(modernCall({ version: `junk-${i}` }), T0);
    for (let i = 0; i < 3; i += 1) tally.add(modernCall({ version: '2026-07-28' }), T0 + 1_000);
    for (let i = 0; i < 2; i += 1) tally.add(legacyCall({ version: '2025-06-18' }), T0 + 1_000);
    // A minute, a day later: still named (nothing is kept out for the life of the process).
    tally.add(modernCall({ version: '2026-07-28' }), T0 + 24 * 60 * MINUTE);
    const counts = countsBy(tally.drain().cells, 'version');
    expect(counts).toMatchObject({ '2026-07-28': 4, '2025-06-18': 2, other: 36 });
    expect(Object.keys(counts).filter((v) => v.startsWith('junk-'))).toHaveLength(64);
    expect(tally.stats()).toMatchObject({ overflowedEvents: 36, overflowedVersionEvents: 36, overflowedMethodEvents: 0, overflowedCallerEvents: 0 });
  });

  test('a flood of made-up methods never folds an MCP method, nor a custom method with steady traffic', () => {
    const tally = new Tally({ node: 'n', now: () => T0, maxMethods: 8 });
    let junk = 0;
    for (let minute = 0; minute < 5; minute += 1) {
      const at = T0 + minute * MINUTE;
      if (minute === 0) tally.add(modernCall({ method: 'acme/search' }), at);
      for (let i = 0; i < 300; i += 1) tally.add(modernCall({ method: `junk/${junk++}` }), at);
      tally.add(modernCall({ method: 'acme/search' }), at + 1);
      tally.add(modernCall({ method: 'tools/call' }), at + 2);
      tally.add(modernCall({ method: 'resources/read' }), at + 3);
    }
    const counts = countsBy(tally.drain().cells, 'method');
    expect(counts).toMatchObject({ 'acme/search': 6, 'tools/call': 5, 'resources/read': 5 });
    expect(tally.stats().overflowedMethodEvents).toBe(counts['other']);
    expect(counts['other']).toBeGreaterThan(1_400);
  });

  test('a flood of random bearer tokens never folds a verified caller, nor a bearer caller with steady traffic; a new bearer caller gets its name once the flood stops', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    const at = (minute: number) => T0 + minute * MINUTE;
    tally.add(modernCall({ integration: 'tok_steady' }), at(0));
    for (let minute = 0; minute < 3; minute += 1) {
      for (let i = 0; i < 6_000; i += 1) tally.add(modernCall({ integration: randomToken() }), at(minute));
      tally.add(modernCall({ integration: 'tok_steady' }), at(minute) + 1);
      tally.add(modernCall({ integration: 'oauth:claude-desktop' }, 'oauth'), at(minute) + 2);
      tally.add(modernCall({ integration: 'partner-a' }, 'static-map'), at(minute) + 3);
    }
    tally.add(modernCall({ integration: 'tok_late' }), at(2) + 4);
    // The flood stops: junk seen last in minute 2 holds its room through minute 3, then is released.
    tally.add(modernCall({ integration: 'tok_late' }), at(3));
    tally.add(modernCall({ integration: 'tok_late' }), at(4));
    tally.add(modernCall({ integration: 'tok_late' }), at(5));
    const batch = tally.drain();
    const counts = countsBy(batch.cells, 'integration');
    expect(counts).toMatchObject({ tok_steady: 4, 'oauth:claude-desktop': 3, 'partner-a': 3, tok_late: 2 });
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(1 + 3 * 6_003 + 4);
    expect(batch.integrations.map((s) => s.key)).toEqual(expect.arrayContaining(['tok_steady', 'oauth:claude-desktop', 'partner-a', 'tok_late']));
    expect(tally.stats()).toMatchObject({ overflowedCallerEvents: counts['other'], overflowedEvents: counts['other'] });
  });

  test('anonymous is always named, past a full callers cap', () => {
    const tally = new Tally({ node: 'n', now: () => T0, maxIntegrations: 1 });
    tally.add(modernCall({ integration: 'tok_a' }));
    tally.add(modernCall({ integration: 'anonymous' }, 'anonymous'));
    expect(countsBy(tally.drain().cells, 'integration')).toEqual({ tok_a: 1, anonymous: 1 });
  });

  test('every caller source but a bearer fingerprint and anonymous is verified, so capped apart from tokens', () => {
    expect(new Set(CALLER_SOURCES.filter((source) => source !== 'bearer-fingerprint' && source !== 'anonymous'))).toEqual(VERIFIED_CALLER_SOURCES);
  });

  test('an unknown value heavier than the lightest held one takes its name at the next minute', () => {
    const tally = new Tally({ node: 'n', now: () => T0, maxVersions: 2 });
    for (const version of ['DRAFT-2026-v1', 'DRAFT-2026-v2']) tally.add(modernCall({ version }), T0);
    for (let i = 0; i < 10; i += 1) tally.add(modernCall({ version: 'DRAFT-2026-v3' }), T0 + 1);
    tally.add(modernCall({ version: 'DRAFT-2026-v3' }), T0 + MINUTE);
    tally.add(modernCall({ version: 'DRAFT-2026-v2' }), T0 + MINUTE);
    expect(tally.drain().cells.map((c) => [c.minute, c.version, c.count])).toEqual([
      [T0, 'DRAFT-2026-v1', 1],
      [T0, 'DRAFT-2026-v2', 1],
      [T0, 'other', 10],
      [T0 + MINUTE, 'DRAFT-2026-v3', 1],
      [T0 + MINUTE, 'DRAFT-2026-v2', 1],
    ]);
  });

  describe('properties, through the tally', () => {
    // Per minute: for each of the steady caller's calls, how many one-off tokens come before it; then a tail.
    const minuteArb = fc.record({ gaps: fc.array(fc.nat({ max: 15 }), { minLength: 1, maxLength: 4 }), tail: fc.nat({ max: 15 }), drain: fc.boolean() });
    const runArb = fc.record({
      cap: fc.integer({ min: 1, max: 5 }),
      minutes: fc.array(minuteArb, { minLength: 1, maxLength: 6 }),
    });

    test('every event is counted exactly once, folded or not, and a caller with steady traffic is never folded by one-off tokens', () => {
      fc.assert(
        fc.property(runArb, ({ cap, minutes }) => {
          const tally = new Tally({ node: 'n', now: () => T0, maxIntegrations: cap, maxVersions: cap, maxMethods: cap });
          const cells: TallyCell[] = [];
          let events = 0;
          let steady = 0;
          let junk = 0;
          const add = (entry: TallyEntry, at: number) => {
            tally.add(entry, at);
            events += 1;
          };
          let at = T0;
          add(modernCall({ integration: 'tok_steady', version: 'v-steady', method: 'acme/steady' }), at);
          steady += 1;
          for (const { gaps, tail, drain } of minutes) {
            for (const gap of gaps) {
              for (let k = 0; k < gap; k += 1) add(modernCall({ integration: `tok_junk_${junk}`, version: `v-junk-${junk}`, method: `junk/${junk++}` }), at);
              add(modernCall({ integration: 'tok_steady', version: 'v-steady', method: 'acme/steady' }), at);
              steady += 1;
            }
            for (let k = 0; k < tail; k += 1) add(modernCall({ integration: `tok_junk_${junk}`, version: `v-junk-${junk}`, method: `junk/${junk++}` }), at);
            // Drains (flushes) come when they will: the caps' windows are the clock's minutes, not flushes.
            if (drain) cells.push(...tally.drain().cells);
            at += MINUTE;
          }
          cells.push(...tally.drain().cells);
          expect(cells.reduce((sum, c) => sum + c.count, 0)).toBe(events);
          const mine = cells.filter((c) => c.integration === 'tok_steady');
          expect(mine.reduce((sum, c) => sum + c.count, 0)).toBe(steady);
          expect(mine.every((c) => c.version === 'v-steady' && c.method === 'acme/steady')).toBe(true);
          const stats = tally.stats();
          expect(stats.events).toBe(events);
          const other = (label: 'integration' | 'version' | 'method') => cells.filter((c) => c[label] === 'other').reduce((sum, c) => sum + c.count, 0);
          expect([stats.overflowedCallerEvents, stats.overflowedVersionEvents, stats.overflowedMethodEvents]).toEqual([other('integration'), other('version'), other('method')]);
        }),
        { numRuns: 200 },
      );
    });
  });
});
