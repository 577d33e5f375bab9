import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HeavyLabels } from '../../server/tally/heavy-labels.js';

/** Admits each value in turn and answers which were named. */
function admitAll(set: HeavyLabels, values: readonly string[]): boolean[] {
  return values.map((value) => set.admit(value));
}

describe('HeavyLabels', () => {
  test('names newcomers while there is room, then refuses them; admitted values stay named within the window', () => {
    const set = new HeavyLabels(2);
    expect(admitAll(set, ['a', 'b', 'c', 'a', 'b', 'c'])).toEqual([true, true, false, true, true, false]);
    expect(set.size).toBe(2);
  });

  test('a value longer than 128 characters is never named, even with room', () => {
    const set = new HeavyLabels(4);
    expect(admitAll(set, ['x'.repeat(128), 'y'.repeat(129)])).toEqual([true, false]);
  });

  test('a value not seen in a window is released at its end, so room returns', () => {
    const set = new HeavyLabels(1);
    expect(admitAll(set, ['junk', 'real'])).toEqual([true, false]);
    set.roll(); // junk was seen in this window: it keeps its name through the next one
    expect(admitAll(set, ['real'])).toEqual([false]);
    set.roll(); // junk was not seen: released; real (one refused event) takes the free room
    expect(admitAll(set, ['real', 'junk'])).toEqual([true, false]);
  });

  test('a refused value heavier than the lightest incumbent takes its place at the window end; a tie keeps the incumbent', () => {
    const set = new HeavyLabels(2);
    admitAll(set, ['light', 'steady', 'steady', 'heavy', 'heavy', 'heavy', 'tie', 'tie']);
    set.roll();
    // heavy (3 refused) outweighs light (1 hit); tie (2) only equals steady (2), so steady stays.
    expect(admitAll(set, ['heavy', 'steady', 'light', 'tie'])).toEqual([true, true, false, false]);
  });

  test('a million one-off values never displace a named value seen once per window', () => {
    const set = new HeavyLabels(8);
    expect(set.admit('steady')).toBe(true);
    let junk = 0;
    for (let window = 0; window < 20; window += 1) {
      for (let i = 0; i < 50_000; i += 1) set.admit(`junk-${junk++}`);
      expect(set.admit('steady')).toBe(true);
      set.roll();
    }
  });

  describe('properties', () => {
    // One window: how many one-off junk values come before and after each of the steady value's hits.
    const windowArb = fc.array(fc.nat({ max: 12 }), { minLength: 2, maxLength: 5 });
    const runArb = fc.record({ cap: fc.integer({ min: 1, max: 6 }), windows: fc.array(windowArb, { minLength: 1, maxLength: 8 }) });

    test('a value with traffic in every window, named once, is never refused whatever one-off junk comes between', () => {
      fc.assert(
        fc.property(runArb, ({ cap, windows }) => {
          const set = new HeavyLabels(cap);
          expect(set.admit('steady')).toBe(true);
          let junk = 0;
          for (const gaps of windows) {
            // gaps.length - 1 >= 1 hits of the steady value, junk in every gap.
            gaps.forEach((count, i) => {
              for (let k = 0; k < count; k += 1) set.admit(`junk-${junk++}`);
              if (i < gaps.length - 1) expect(set.admit('steady')).toBe(true);
            });
            set.roll();
          }
        }),
        { numRuns: 300 },
      );
    });

    test('once junk stops, room returns: a new value is named from the second window on, whatever came before', () => {
      const junkArb = fc.array(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }), { maxLength: 5 });
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 6 }), junkArb, (cap, windows) => {
          const set = new HeavyLabels(cap);
          for (const events of windows) {
            for (const n of events) set.admit(`junk-${n}`);
            set.roll();
          }
          set.admit('fresh');
          set.roll();
          expect(set.admit('fresh')).toBe(true);
        }),
        { numRuns: 300 },
      );
    });

    test('never names more than `cap` values in a window, and a value once refused in a window stays refused in it', () => {
      const eventsArb = fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 30 }), { maxLength: 6 });
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 4 }), eventsArb, (cap, windows) => {
          const set = new HeavyLabels(cap);
          for (const events of windows) {
            const named = new Set<string>();
            const refused = new Set<string>();
            for (const value of events) (set.admit(value) ? named : refused).add(value);
            expect(named.size).toBeLessThanOrEqual(cap);
            expect([...named].filter((value) => refused.has(value))).toEqual([]);
            expect(set.size).toBeLessThanOrEqual(cap);
            set.roll();
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});
