/**
 * Classification alone, the full `JSON.parse` reading and the scanner side by side: each request
 * timed by both in turns, for several rounds, so a noisy machine shows in the spread and the
 * ratio of neighbouring runs stays meaningful. Prints a Markdown table.
 */
import { NO_LOOKUPS } from '../../server/protocol/classified-message.js';
import { classifyHttpRequest, type HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import { readClassifiableJson } from '../../server/protocol/read-classifiable-json.js';
import { parseJson } from '../../server/protocol/read-json-rpc.js';
import { HEADER_CLASSIFIABLE, INITIALIZE, LEGACY_1KB, LEGACY_SESSION, MODERN, MODERN_1KB, MODERN_1KB_TEXT } from './classify-requests.js';
import { measure } from './run-micro-benchmarks.js';

const ROUNDS = Number(process.env.CLASSIFY_BENCH_ROUNDS ?? 3);

const CASES: [string, HttpRequestFacts][] = [
  ['header-classifiable (legacy session GET stream)', HEADER_CLASSIFIABLE],
  [`modern tools/call, ${MODERN.body?.length} chars`, MODERN],
  [`modern tools/call, ${MODERN_1KB.body?.length} chars, many small members`, MODERN_1KB],
  [`modern tools/call, ${MODERN_1KB_TEXT.body?.length} chars, one long text`, MODERN_1KB_TEXT],
  [`legacy session tools/call, ${LEGACY_SESSION.body?.length} chars`, LEGACY_SESSION],
  [`legacy session tools/call, ${LEGACY_1KB.body?.length} chars`, LEGACY_1KB],
  [`legacy initialize, ${INITIALIZE.body?.length} chars`, INITIALIZE],
];

const rows: string[] = ['| request | round | full JSON.parse ns/op | scanner ns/op | full ÷ scanner |', '| --- | --- | --- | --- | --- |'];
for (const [name, facts] of CASES) {
  for (let round = 1; round <= ROUNDS; round += 1) {
    const full = measure(name, () => classifyHttpRequest(facts, NO_LOOKUPS, parseJson).messages.length);
    const fast = measure(name, () => classifyHttpRequest(facts, NO_LOOKUPS, readClassifiableJson).messages.length);
    rows.push(`| ${name} | ${round} | ${full.nsPerOp.toFixed(0)} | ${fast.nsPerOp.toFixed(0)} | ${(full.nsPerOp / fast.nsPerOp).toFixed(2)}× |`);
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }
}
console.log(rows.join('\n'));
