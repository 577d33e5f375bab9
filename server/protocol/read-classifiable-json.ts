/**
 * Reads a request body (or stdio line) for classification without building it. Pure. The scanner
 * reads only the members classification looks at; whatever it does not vouch for is parsed whole,
 * so the answer is always the one a full `JSON.parse` would lead to, invalid JSON included.
 * It is not what the classifiers use by default: measured side by side (bench/micro/classify.ts), V8's
 * native `JSON.parse` of the whole body is faster than this scanner in JS, on small bodies and on
 * 1 KB ones, token-dense or string-heavy alike.
 */
import { parseJson } from './read-json-rpc.js';
import { scanJsonRpc } from './scan-json-rpc.js';

export type ParsedJson = { ok: true; value: unknown } | { ok: false };

/** The body as classification sees it: the scanner's sparse reading, or the full parse when it is unsure. */
export function readClassifiableJson(text: string): ParsedJson {
  return scanJsonRpc(text) ?? parseJson(text);
}
