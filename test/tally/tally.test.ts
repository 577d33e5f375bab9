import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ERAS, MESSAGE_KINDS, OUTCOMES, REASONS, TRANSPORTS } from '../../server/protocol/vocabulary.js';
import { Tally, type TallyEntry, type TallyOptions } from '../../server/tally/tally.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
const MINUTE = 60_000;

function legacyEntry(overrides: Partial<TallyEntry['labels']> = {}, extra: Partial<Omit<TallyEntry, 'labels'>> = {}): TallyEntry {
  return {
    labels: {
      era: 'legacy',
      transport: 'streamable-http',
      reason: 'session-header',
      version: '2025-06-18',
      method: 'tools/call',
      kind: 'request',
      outcome: 'served',
      integration: 'tok_a',
      ...overrides,
    },
    integrationSource: 'bearer-fingerprint',
    clientInfo: undefined,
    claimMismatch: false,
    ...extra,
  };
}

function modernEntry(overrides: Partial<TallyEntry['labels']> = {}, extra: Partial<Omit<TallyEntry, 'labels'>> = {}): TallyEntry {
  return legacyEntry({ era: 'modern', reason: 'modern-meta', version: '2026-07-28', ...overrides }, extra);
}

/** A tally whose clock the test moves. */
function tallyAt(start = T0, options: Partial<TallyOptions> = {}) {
  let now = start;
  const tally = new Tally({ node: 'node-1', now: () => now, ...options });
  return {
    tally,
    setNow: (at: number) => {
      now = at;
    },
  };
}

function labelsOf(cell: TallyCell) {
  const { era, transport, reason, version, method, kind, outcome, integration } = cell;
  return { era, transport, reason, version, method, kind, outcome, integration };
}

describe('Tally', () => {
  test('keeps refusals per cell, plan and cause, apart from the batch, handed over once per drain', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    tally.add(legacyEntry({ outcome: 'blocked' }, { refusal: { plan: 3, cause: 'brownout' } }));
    tally.add(legacyEntry({ outcome: 'blocked' }, { refusal: { plan: 3, cause: 'brownout' } }));
    tally.add(legacyEntry({ outcome: 'blocked' }, { refusal: { plan: 4, cause: 'cut' } }));
    tally.add(legacyEntry());
    expect(tally.drain().cells.map((c) => [c.outcome, c.count])).toEqual([
      ['blocked', 3],
      ['served', 1],
    ]);
    expect(tally.takeRefusals().map((r) => [r.labels.outcome, r.plan, r.cause, r.count])).toEqual([
      ['blocked', 3, 'brownout', 2],
      ['blocked', 4, 'cut', 1],
    ]);
    expect(tally.takeRefusals()).toEqual([]);
  });

  test('keeps the durations of timed requests per cell, in the conventions\' buckets, apart from the batch, handed over once per drain', () => {
    const tally = new Tally({ node: 'n', now: () => T0 });
    for (const seconds of [0.004, 0.01, 0.3, 400]) tally.add(legacyEntry({}, { seconds }));
    tally.add(legacyEntry({ method: 'tools/list' }));
    const batch = tally.drain();
    expect(batch.cells.map((c) => [c.method, c.count])).toEqual([
      ['tools/call', 4],
      ['tools/list', 1],
    ]);
    expect(Object.keys(batch)).toEqual(['cells', 'integrations']);
    const [timed, ...rest] = tally.takeDurations();
    expect(rest).toEqual([]);
    expect(timed!.labels).toMatchObject({ method: 'tools/call', kind: 'request', integration: 'tok_a' });
    // 0.004 and 0.01 in the first bucket (bounds are inclusive), 0.3 in (0.2, 0.5], 400 past the last bound.
    expect(timed!.counts).toEqual([2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(timed!.count).toBe(4);
    expect(timed!.sum).toBeCloseTo(400.314, 9);
    expect(tally.takeDurations()).toEqual([]);
    // A drain without a take drops the durations it held: bounded whether or not anyone takes them.
    tally.add(legacyEntry({}, { seconds: 1 }));
    tally.drain();
    tally.drain();
    expect(tally.takeDurations()).toEqual([]);
  });

  describe('per-minute bucketing', () => {
    test('counts events of the same minute and labels in one cell starting at the minute', () => {
      const { tally, setNow } = tallyAt(T0);
      tally.add(legacyEntry());
      setNow(T0 + MINUTE - 1);
      tally.add(legacyEntry());
      setNow(T0 + MINUTE);
      tally.add(legacyEntry());
      const { cells } = tally.drain();
      expect(cells.map((c) => [c.minute, c.count])).toEqual([
        [T0, 2],
        [T0 + MINUTE, 1],
      ]);
      expect(cells[0]).toMatchObject({ node: 'node-1', mismatchCount: 0, ...legacyEntry().labels });
    });

    test('an explicit time wins over the clock', () => {
      const { tally } = tallyAt(T0);
      tally.add(legacyEntry(), T0 + 5 * MINUTE + 30_000);
      expect(tally.drain().cells.map((c) => c.minute)).toEqual([T0 + 5 * MINUTE]);
    });

    test('keeps apart events that differ in any one label', () => {
      const { tally } = tallyAt();
      const variants: Partial<TallyEntry['labels']>[] = [
        {},
        { era: 'modern' },
        { transport: 'http+sse' },
        { reason: 'batch' },
        { version: '2025-03-26' },
        { method: 'tools/list' },
        { outcome: 'cancelled' },
        { integration: 'tok_b' },
      ];
      for (const v of variants) tally.add(legacyEntry(v));
      expect(tally.drain().cells.map((c) => c.count)).toEqual(variants.map(() => 1));
    });

    test('files a missing version under (none)', () => {
      const { tally } = tallyAt();
      tally.add(legacyEntry({ version: null }));
      expect(tally.drain().cells[0]?.version).toBe('(none)');
    });

    test('counts claim mismatches beside the count', () => {
      const { tally } = tallyAt();
      tally.add(modernEntry({}, { claimMismatch: true }));
      tally.add(modernEntry());
      tally.add(modernEntry({}, { claimMismatch: true }));
      expect(tally.drain().cells.map((c) => [c.count, c.mismatchCount])).toEqual([[3, 2]]);
    });
  });

  describe('caps', () => {
    test.each([
      { label: 'method', option: 'maxMethods', values: ['acme/search', 'acme/index', 'acme/purge'] },
      { label: 'version', option: 'maxVersions', values: ['DRAFT-2026-v7', 'DRAFT-2026-v8', 'DRAFT-2026-v9'] },
      { label: 'integration', option: 'maxIntegrations', values: ['tok_a', 'tok_b', 'tok_c'] },
    ] as const)('past maxMethods/maxVersions/maxIntegrations a new unknown $label counts as other, admitted ones stay', ({ label, option, values }) => {
      const { tally } = tallyAt(T0, { [option]: 2 });
      for (const value of values) tally.add(legacyEntry({ [label]: value }));
      tally.add(legacyEntry({ [label]: values[0] }));
      const cells = tally.drain().cells;
      expect(cells.map((c) => [c[label], c.count])).toEqual([
        [values[0], 2],
        [values[1], 1],
        ['other', 1],
      ]);
      expect(tally.stats().overflowedEvents).toBe(1);
    });

    test('negotiation, plumbing and every other known method are never folded, past either cap, so the share can still tell them from work', () => {
      const { tally } = tallyAt(T0, { maxMethods: 1, maxCells: 1 });
      for (const method of ['acme/a', 'acme/b', 'tools/list', 'initialize', 'server/discover', 'ping', 'logging/setLevel']) tally.add(legacyEntry({ method }));
      expect(tally.drain().cells.map((c) => c.method)).toEqual(['acme/a', 'other', 'tools/list', 'initialize', 'server/discover', 'ping', 'logging/setLevel']);
    });

    test('an admitted value stays admitted after a drain', () => {
      const { tally } = tallyAt(T0, { maxMethods: 1 });
      tally.add(legacyEntry({ method: 'acme/a' }));
      tally.drain();
      tally.add(legacyEntry({ method: 'acme/b' }));
      tally.add(legacyEntry({ method: 'acme/a' }));
      expect(tally.drain().cells.map((c) => c.method)).toEqual(['other', 'acme/a']);
    });

    test.each(['method', 'version', 'integration'] as const)('a %s longer than 128 characters counts as other even below the cap', (label) => {
      const { tally } = tallyAt();
      tally.add(legacyEntry({ [label]: 'x'.repeat(128) }));
      tally.add(legacyEntry({ [label]: 'y'.repeat(129) }));
      expect(tally.drain().cells.map((c) => c[label])).toEqual(['x'.repeat(128), 'other']);
      expect(tally.stats().overflowedEvents).toBe(1);
    });

    test('past maxCells free-text labels fold into other while era, transport, reason, kind, outcome and known versions and methods stay exact', () => {
      const { tally } = tallyAt(T0, { maxCells: 2 });
      tally.add(legacyEntry({ method: 'a' }));
      tally.add(legacyEntry({ method: 'b' }));
      tally.add(legacyEntry({ method: 'c', version: 'DRAFT-2026-v9', integration: 'tok_z' }));
      tally.add(modernEntry({ method: 'tools/list', transport: 'stdio', outcome: 'served-as-legacy' }));
      tally.add(legacyEntry({ method: 'a' }));
      const cells = tally.drain().cells;
      expect(cells.map((c) => ({ ...labelsOf(c), count: c.count }))).toEqual([
        { ...legacyEntry({ method: 'a' }).labels, count: 2 },
        { ...legacyEntry({ method: 'b' }).labels, count: 1 },
        { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: 'other', method: 'other', kind: 'request', outcome: 'served', integration: 'other', count: 1 },
        { era: 'modern', transport: 'stdio', reason: 'modern-meta', version: '2026-07-28', method: 'tools/list', kind: 'request', outcome: 'served-as-legacy', integration: 'other', count: 1 },
      ]);
      expect(tally.stats()).toMatchObject({ overflowedEvents: 2, overflowedCellEvents: 2, overflowedMethodEvents: 0, overflowedVersionEvents: 0, overflowedCallerEvents: 0 });
    });

    test('folded events of the same path share one overflow cell', () => {
      const { tally } = tallyAt(T0, { maxCells: 1 });
      tally.add(legacyEntry({ method: 'a' }));
      for (const method of ['b', 'c', 'd', 'e']) tally.add(legacyEntry({ method }));
      expect(tally.drain().cells.map((c) => [c.method, c.count])).toEqual([
        ['a', 1],
        ['other', 4],
      ]);
    });

    test('stats count events, overflowed events, pending events and cells', () => {
      const { tally } = tallyAt(T0, { maxMethods: 1 });
      tally.add(legacyEntry({ method: 'a' }));
      tally.add(legacyEntry({ method: 'b' }));
      tally.add(legacyEntry({ method: 'b' }));
      const none = { overflowedCallerEvents: 0, overflowedVersionEvents: 0, overflowedCellEvents: 0, overflowedPeople: 0 };
      expect(tally.stats()).toEqual({ events: 3, overflowedEvents: 2, overflowedMethodEvents: 2, pendingEvents: 3, cells: 2, ...none });
      tally.drain();
      tally.add(legacyEntry({ method: 'a' }));
      expect(tally.stats()).toEqual({ events: 4, overflowedEvents: 2, overflowedMethodEvents: 2, pendingEvents: 1, cells: 1, ...none });
    });
  });

  describe('integration sightings', () => {
    test('record first and last seen, last legacy seen and the source', () => {
      const { tally } = tallyAt();
      tally.add(modernEntry(), T0 + 1_000);
      tally.add(legacyEntry(), T0 + 2_000);
      tally.add(modernEntry(), T0 + 3_000);
      expect(tally.drain().integrations).toEqual([{ key: 'tok_a', source: 'bearer-fingerprint', firstSeen: T0 + 1_000, lastSeen: T0 + 3_000, lastLegacySeen: T0 + 2_000, clientInfo: undefined }]);
    });

    test('leave last legacy seen empty for a caller never seen on the legacy path', () => {
      const { tally } = tallyAt();
      tally.add(modernEntry());
      tally.add(modernEntry({ era: 'unknown', reason: 'invalid-json' }));
      expect(tally.drain().integrations[0]?.lastLegacySeen).toBeUndefined();
    });

    test('leave last legacy seen empty for a caller whose legacy traffic is only a refused probe or a handshake', () => {
      const { tally } = tallyAt();
      tally.add(legacyEntry({ kind: 'stream-open', method: 'GET', reason: 'get-stream', version: '2025-03-26', outcome: 'client-error' }));
      tally.add(legacyEntry({ method: 'initialize', reason: 'initialize' }));
      tally.add(legacyEntry({ outcome: 'session-gone' }));
      tally.add(modernEntry());
      expect(tally.drain().integrations[0]?.lastLegacySeen).toBeUndefined();
    });

    test('keep the latest clientInfo hint, and keep it when a later event carries none', () => {
      const { tally } = tallyAt();
      tally.add(legacyEntry({}, { clientInfo: { name: 'old-cli', version: '1.0' } }), T0);
      tally.add(legacyEntry({}, { clientInfo: { name: 'new-cli', version: '2.0' } }), T0 + 1);
      tally.add(legacyEntry({}, { clientInfo: undefined }), T0 + 2);
      expect(tally.drain().integrations[0]?.clientInfo).toEqual({ name: 'new-cli', version: '2.0' });
    });

    test('keep one sighting per integration and start afresh after a drain', () => {
      const { tally } = tallyAt();
      tally.add(legacyEntry({ integration: 'tok_a' }), T0);
      tally.add(legacyEntry({ integration: 'tok_b' }), T0 + 1);
      tally.add(legacyEntry({ integration: 'tok_a' }), T0 + 2);
      expect(tally.drain().integrations.map((i) => [i.key, i.firstSeen, i.lastSeen])).toEqual([
        ['tok_a', T0, T0 + 2],
        ['tok_b', T0 + 1, T0 + 1],
      ]);
      expect(tally.drain()).toEqual({ cells: [], integrations: [] });
    });

    test('are not kept for callers folded into other', () => {
      const { tally } = tallyAt(T0, { maxIntegrations: 1 });
      tally.add(legacyEntry({ integration: 'tok_a' }));
      tally.add(legacyEntry({ integration: 'tok_b' }));
      expect(tally.drain().integrations.map((i) => i.key)).toEqual(['tok_a']);
    });

    test('callers past the cap are counted as overflowed, apart from other folded labels', () => {
      const { tally } = tallyAt(T0, { maxIntegrations: 1, maxMethods: 1 });
      tally.add(legacyEntry({ integration: 'tok_a', method: 'acme/a' }));
      tally.add(legacyEntry({ integration: 'tok_b', method: 'acme/a' }));
      tally.add(legacyEntry({ integration: 'tok_c', method: 'acme/a' }));
      tally.add(legacyEntry({ integration: 'tok_a', method: 'acme/b' }));
      expect(tally.stats()).toMatchObject({ overflowedEvents: 3, overflowedCallerEvents: 2, overflowedMethodEvents: 1 });
    });
  });

  describe('conservation (property)', () => {
    const label = (values: string[]) => fc.oneof(fc.constantFrom(...values), fc.string({ maxLength: 140 }));
    const entryArb = fc.record({
      era: fc.constantFrom(...ERAS),
      transport: fc.constantFrom(...TRANSPORTS),
      reason: fc.constantFrom(...REASONS),
      outcome: fc.constantFrom(...OUTCOMES),
      kind: fc.constantFrom(...MESSAGE_KINDS),
      version: fc.option(label(['2025-06-18', '2026-07-28']), { nil: null }),
      method: label(['tools/call', 'tools/list', 'initialize']),
      integration: label(['tok_a', 'tok_b', 'anonymous']),
      mismatch: fc.boolean(),
      minute: fc.integer({ min: 0, max: 5 }),
      drainAfter: fc.boolean(),
    });
    const capsArb = fc.record({
      maxCells: fc.integer({ min: 0, max: 6 }),
      maxMethods: fc.integer({ min: 0, max: 4 }),
      maxVersions: fc.integer({ min: 0, max: 4 }),
      maxIntegrations: fc.integer({ min: 0, max: 4 }),
    });

    test('whatever the caps, the drained cells count every add exactly once, and nothing else', () => {
      fc.assert(
        fc.property(capsArb, fc.array(entryArb, { maxLength: 120 }), (caps, adds) => {
          const tally = new Tally({ node: 'n', now: () => T0, ...caps });
          const drained: TallyCell[] = [];
          let mismatches = 0;
          for (const a of adds) {
            const { mismatch, minute, drainAfter, ...labels } = a;
            tally.add({ labels, integrationSource: 'bearer-fingerprint', clientInfo: undefined, claimMismatch: mismatch }, T0 + minute * MINUTE);
            if (mismatch) mismatches += 1;
            if (drainAfter) drained.push(...tally.drain().cells);
          }
          drained.push(...tally.drain().cells);
          expect(drained.reduce((sum, c) => sum + c.count, 0)).toBe(adds.length);
          expect(drained.reduce((sum, c) => sum + c.mismatchCount, 0)).toBe(mismatches);
          expect(drained.every((c) => c.count > 0)).toBe(true);
          expect(tally.stats()).toMatchObject({ events: adds.length, pendingEvents: 0, cells: 0 });
        }),
        { numRuns: 300 },
      );
    });

    test('whatever the caps, the closed-vocabulary labels of every add survive exactly', () => {
      fc.assert(
        fc.property(capsArb, fc.array(entryArb, { maxLength: 80 }), (caps, adds) => {
          const tally = new Tally({ node: 'n', now: () => T0, ...caps });
          const key = (x: { era: string; transport: string; reason: string; kind: string; outcome: string }) => `${x.era}|${x.transport}|${x.reason}|${x.kind}|${x.outcome}`;
          const expected = new Map<string, number>();
          for (const { mismatch, minute, drainAfter: _drain, ...labels } of adds) {
            tally.add({ labels, integrationSource: 's', clientInfo: undefined, claimMismatch: mismatch }, T0 + minute * MINUTE);
            expected.set(key(labels), (expected.get(key(labels)) ?? 0) + 1);
          }
          const actual = new Map<string, number>();
          for (const cell of tally.drain().cells) actual.set(key(cell), (actual.get(key(cell)) ?? 0) + cell.count);
          expect(actual).toEqual(expected);
        }),
        { numRuns: 200 },
      );
    });
  });
});
