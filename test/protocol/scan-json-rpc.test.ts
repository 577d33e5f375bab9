import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { scanJsonRpc } from '../../server/protocol/scan-json-rpc.js';
import { MAX_SKIP_DEPTH } from '../../server/protocol/json-skipper.js';
import { body, classifyBothWays, mutate, spell } from '../support/json-rpc-texts.js';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

function scanned(text: string): unknown {
  const result = scanJsonRpc(text);
  return result === undefined ? 'unsure' : result.value;
}

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

describe('scanJsonRpc', () => {
  test('keeps method, id, the read params members and the presence of result and error, nothing else', () => {
    const text = JSON.stringify({
      jsonrpc: '2.0', id: 4, method: 'tools/call',
      params: { name: 'echo', arguments: { big: [1, 2, { deep: 'x' }] }, _meta: { [META_VERSION]: '2026-07-28', other: 1 } },
    });
    expect(scanned(text)).toEqual({ id: 4, method: 'tools/call', params: { name: 'echo', _meta: { [META_VERSION]: '2026-07-28' } } });
    expect(scanned('[{"id":1,"result":{"a":1}},{"error":{"code":-1}},3,"x"]')).toEqual([{ id: 1, result: true }, { error: true }, null, null]);
  });

  test('reads members as JSON.parse does: the last duplicate wins, escaped keys and strings are decoded', () => {
    expect(scanned('{"method":"a","met\\u0068od":"b","id":"\\u0031"}')).toEqual({ method: 'b', id: '1' });
    expect(scanned('{"params":{"_meta":{"' + META_VERSION + '":"2026-07-28"}},"params":3}')).toEqual({ params: 3 });
  });

  test('reads an id number as the double JSON.parse gives', () => {
    expect(scanned('{"id":1e2}')).toEqual({ id: 100 });
    expect(Object.is((scanned('{"id":-0}') as { id: number }).id, -0)).toBe(true);
    expect(scanned('{"id":9007199254740993}')).toEqual({ id: 9007199254740992 });
    expect(scanned('{"id":1e400}')).toEqual({ id: Infinity });
  });

  test('is unsure of malformed text, a BOM, and nesting deeper than it tracks', () => {
    for (const text of ['', ' ', '\uFEFF{}', '{"a":tru}', '{"a":01}', '{"a":[}', '{"a":1,}', '[1,]', '{"a":"\x01"}', '{"a":"\\x"}', '{} {}', '{"a":1}\u00a0']) {
      expect(scanned(text), JSON.stringify(text)).toBe('unsure');
    }
    const deep = `{"params":{"arguments":${'['.repeat(MAX_SKIP_DEPTH + 1)}${']'.repeat(MAX_SKIP_DEPTH + 1)}}}`;
    expect(scanned(deep)).toBe('unsure');
    const deepest = `{"params":{"arguments":${'['.repeat(MAX_SKIP_DEPTH)}${']'.repeat(MAX_SKIP_DEPTH)}}}`;
    expect(scanned(deepest)).toEqual({ params: {} });
  });

  test('a body of a held member is a string of its own, equal to what JSON.parse gives', () => {
    const method = 'notifications/initialized-with-a-long-name';
    expect(scanned(JSON.stringify({ method }))).toEqual({ method });
  });
});

describe('the scanner agrees with JSON.parse on classification', () => {
  test('generated messages and batches, spelled every way JSON allows, are read without falling back', () => {
    fc.assert(fc.property(body, fc.integer(), (value, seed) => {
      const text = spell(value, createSeededRandom(seed));
      const { fast, full } = classifyBothWays(text);
      expect(fast).toEqual(full);
      // Ordinary text must take the fast path, or the agreement above would prove nothing.
      if (depthOf(value) < MAX_SKIP_DEPTH) expect(scanJsonRpc(text)).toBeDefined();
    }), { numRuns: 1500 });
  });

  test('mutated messages are classified the same: broken ones as invalid JSON, bent ones as JSON.parse reads them', () => {
    let fastAnswers = 0;
    fc.assert(fc.property(body, fc.integer(), fc.integer({ min: 1, max: 4 }), (value, seed, count) => {
      const rnd = createSeededRandom(seed);
      const text = mutate(spell(value, rnd), rnd, count);
      if (scanJsonRpc(text) !== undefined) fastAnswers += 1;
      const { fast, full } = classifyBothWays(text);
      expect(fast).toEqual(full);
    }), { numRuns: 3000 });
    // Some mutations keep the text valid: those must have been read by the scanner itself.
    expect(fastAnswers).toBeGreaterThan(100);
  });
});
