import { describe, expect, test } from 'vitest';
import { classifyHttpRequest } from '../../server/protocol/classify-http-request.js';
import { classifyStdioLine } from '../../server/protocol/classify-stdio-line.js';
import { NO_LOOKUPS } from '../../server/protocol/classified-message.js';
import { readClassifiableJson } from '../../server/protocol/read-classifiable-json.js';
import { parseJson } from '../../server/protocol/read-json-rpc.js';
import { scanJsonRpc } from '../../server/protocol/scan-json-rpc.js';
import { classifyBothWays } from '../support/json-rpc-texts.js';
import { listWireTraces } from '../support/wire-traces.js';

/** Every client→server body and stdio line of the captured SDK traffic. */
function corpusTexts(): { where: string; text: string }[] {
  return listWireTraces().flatMap((trace) => trace.records.flatMap(({ ref, record }) => {
    if (record.type === 'http') return record.req_body === null ? [] : [{ where: `${trace.name}#${ref}`, text: record.req_body }];
    return record.dir === 'c2s' ? [{ where: `${trace.name}#${ref}`, text: record.line }] : [];
  }));
}

describe('readClassifiableJson', () => {
  const corpus = corpusTexts();

  test('the corpus holds bodies of every SDK peer to check', () => {
    expect(corpus.length).toBeGreaterThan(300);
  });

  test('every body and line of the wire-trace corpus is classified the same as by JSON.parse, in every context', () => {
    for (const { where, text } of corpus) {
      const { fast, full } = classifyBothWays(text);
      expect(fast, where).toEqual(full);
    }
  });

  test('every corpus body JSON.parse accepts is read by the scanner, not by the fallback', () => {
    const fellBack = corpus.filter(({ text }) => parseJson(text).ok && scanJsonRpc(text) === undefined).map(({ where }) => where);
    expect(fellBack).toEqual([]);
  });

  test('invalid JSON is filed as invalid-json, as the full parser files it', () => {
    expect(readClassifiableJson('{"method":"tools/list",}')).toEqual({ ok: false });
    const facts = { method: 'POST', path: '/mcp', headers: {}, body: '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}', bodyTooLarge: false };
    expect(classifyHttpRequest(facts, NO_LOOKUPS, readClassifiableJson).messages[0]?.reason).toBe('invalid-json');
    const state = { initializeSeen: false, negotiatedVersion: undefined, serverRequestMethod: () => undefined };
    expect(classifyStdioLine('{"id":1,"method":"ping"', state, readClassifiableJson).messages[0]?.reason).toBe('invalid-json');
  });
});
