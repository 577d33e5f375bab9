import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { nonFiniteAsNull } from '../../server/protocol/non-finite-as-null.js';
import { parseJson } from '../../server/protocol/read-json-rpc.js';

describe('nonFiniteAsNull', () => {
  test.each([
    ['{"a":NaN}', '{"a":null}'],
    ['[Infinity,-Infinity, NaN]', '[null,null, null]'],
    ['{"x":"NaN Infinity","y":-Infinity}', '{"x":"NaN Infinity","y":null}'],
    ['{"q":"a\\"NaN","r":NaN}', '{"q":"a\\"NaN","r":null}'],
  ])('%s reads as %s', (text, lenient) => {
    expect(nonFiniteAsNull(text)).toBe(lenient);
  });

  test('answers undefined when no literal stands outside a string', () => {
    for (const text of ['{"a":1}', '"NaN"', '{"Infinity":"-Infinity"}', '[-1, 2e3]']) expect(nonFiniteAsNull(text)).toBeUndefined();
  });

  test('JSON of any shape with NaN, Infinity or -Infinity in value places parses to the same structure, those values null', () => {
    const special = fc.constantFrom('NaN', 'Infinity', '-Infinity');
    const leaf = fc.oneof(fc.jsonValue({ maxDepth: 0 }).map((v) => ({ text: JSON.stringify(v), value: JSON.parse(JSON.stringify(v)) as unknown })), special.map((s) => ({ text: s, value: null as unknown })));
    const tree: fc.Arbitrary<{ text: string; value: unknown }> = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node') as fc.Arbitrary<{ text: string; value: unknown }>, { maxLength: 4 }).map((items) => ({ text: `[${items.map((i) => i.text).join(',')}]`, value: items.map((i) => i.value) })), fc.dictionary(fc.string(), tie('node') as fc.Arbitrary<{ text: string; value: unknown }>, { maxKeys: 4 }).map((entries) => ({ text: `{${Object.entries(entries).map(([k, v]) => `${JSON.stringify(k)}:${v.text}`).join(',')}}`, value: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, v.value])) }))),
    })).node;
    fc.assert(fc.property(tree, ({ text, value }) => {
      const parsed = parseJson(text);
      expect(parsed.ok).toBe(true);
      expect(parsed.ok && parsed.value).toEqual(value);
    }), { numRuns: 2000 });
  });
});
