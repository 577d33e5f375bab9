import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { JsonSkipper, UNSURE } from '../../server/protocol/json-skipper.js';
import { anyJson, mutate, spell } from '../support/json-rpc-texts.js';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';

/** True when the scanner takes `text` as exactly one JSON value with only whitespace around it. */
function scannerAccepts(text: string): boolean {
  const skipper = new JsonSkipper(text);
  const end = skipper.value(skipper.whitespace(0));
  return end !== UNSURE && skipper.whitespace(end) === text.length;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('JsonSkipper', () => {
  test('accepts what JSON.parse accepts, nesting within bounds', () => {
    for (const text of ['0', '-0.5e+3', '"a\\u00e9\\/"', '[]', '{}', ' [1, {"a": [true, false, null]}, "x"] ', '{"":""}', '"\ud800"']) {
      expect(scannerAccepts(text), text).toBe(true);
    }
  });

  test('rejects what JSON.parse rejects', () => {
    for (const text of ['01', '-', '1.', '.5', '+1', '1e', 'tru', 'nul', '[1,]', '{"a":1,}', '{"a"}', '{a:1}', '[}', '{]', '"\t"', '"\\a"', '"\\u12g4"', "'a'", 'NaN', '[1 2]', '"abc']) {
      expect(scannerAccepts(text), text).toBe(false);
      expect(parses(text), text).toBe(false);
    }
  });

  test('never accepts a text JSON.parse rejects, however it is mutated', () => {
    fc.assert(fc.property(anyJson, fc.integer(), fc.integer({ min: 0, max: 5 }), (value, seed, count) => {
      const rnd = createSeededRandom(seed);
      const text = mutate(spell(value, rnd), rnd, count);
      if (scannerAccepts(text)) expect(parses(text), text).toBe(true);
      if (count === 0) expect(scannerAccepts(text), text).toBe(true);
    }), { numRuns: 3000 });
  });
});
