/**
 * `npx tsx bench/batch/batch.ts`: what one request holding a JSON-RPC batch of 100,000 messages costs
 * the sidecar, side by side with the floor no reader of the body can go under (`JSON.parse` of the
 * same bytes), and how large the answer is under a cut. Before the batch bound, every element was
 * classified, judged and counted one by one, and a refusal carried one error per request; past 100
 * messages (the SDK servers' own limit) the batch is one message. The sidecar's part is measured in
 * process: the proxy's classification, the policy's decision and the refusal (gate-exchange.ts).
 * Appends a section to bench/RESULTS.md unless BENCH_RECORD=0.
 */
import { dirname } from 'node:path';
import { compilePolicy } from '../../server/policy/compile-policy.js';
import { HttpMeter } from '../../server/sidecar/http-meter.js';
import { gateExchange } from '../../server/sidecar/gate-exchange.js';
import type { Caller } from '../../server/sidecar/identify-caller.js';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { median } from '../support/percentile.js';

const DAY = 86_400_000;
const NOW = Date.now();
const ROUNDS = Number(process.env.BENCH_BATCH_ROUNDS ?? 7);
const SIZES = [100, 101, 10_000, 100_000];
const CALLER: Caller = { integration: 'anonymous', source: 'anonymous' } as Caller;
const day = (offset: number) => new Date(NOW + offset * DAY).toISOString().slice(0, 10);

const policy = compilePolicy(
  {
    version: 1,
    supportedVersions: ['2026-07-28', '2025-11-25'],
    plans: [{ id: 1, name: 'Retire the legacy era', scope: { kind: 'era', value: 'legacy' }, action: 'deny', announceDate: day(-60), retireDate: day(-1), blockNewCallersFrom: null, gate: null, policyUrl: null, brownouts: [], exemptions: [], cutFrom: NOW - DAY, knownCallers: new Set() }],
  },
  NOW,
);

const cpuMicros = (run: () => void): number => {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return used.user + used.system;
};

function batchOf(size: number): string {
  return `[${Array.from({ length: size }, (_, id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`).join(',')}]`;
}

function main(): void {
  const startedAt = new Date();
  let counted = 0;
  const meter = new HttpMeter<Caller>({ record: () => void (counted += 1) });
  const rows: string[] = [];
  for (const size of SIZES) {
    const body = batchOf(size);
    const facts = { method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body, bodyTooLarge: false };
    const parse: number[] = [];
    const gate: number[] = [];
    let answerBytes = 0;
    let messages = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternated in each round, so drift on a shared machine falls on both alike.
      parse.push(cpuMicros(() => JSON.parse(body)));
      const before = counted;
      gate.push(
        cpuMicros(() => {
          const gated = gateExchange(meter, facts, CALLER, policy, () => NOW, (error) => {
            throw error;
          });
          answerBytes = Buffer.byteLength(gated.refusal?.body ?? '');
        }),
      );
      messages = counted - before;
    }
    const ratio = median(gate) / median(parse);
    process.stderr.write(`${size} messages: JSON.parse ${median(parse).toFixed(0)} µs, sidecar ${median(gate).toFixed(0)} µs (${ratio.toFixed(2)}×), answer ${answerBytes} B, ${messages} counted\n`);
    rows.push(`| ${size.toLocaleString('en')} | ${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB | ${median(parse).toFixed(0)} | ${median(gate).toFixed(0)} | ${ratio.toFixed(2)} | ${answerBytes} | ${messages} |`);
  }
  const section = [
    `## ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} — a batch under a cut (bench/batch/batch.ts)`,
    '',
    `- Machine: ${machineLine(describeMachine())}.`,
    `- Code: ${describeCode(dirname(RESULTS_FILE))}.`,
    `- In process, tsx: for each batch of \`ping\` requests, CPU µs of \`JSON.parse\` of the body (the floor) and of the sidecar's classification, decision and refusal under a deny cut on the legacy era (gateExchange), alternated, ${ROUNDS} rounds, medians. The answer is the refusal's body; "counted" is the messages the meter recorded for the request.`,
    '',
    '| messages | body | JSON.parse µs | sidecar µs | sidecar ÷ parse | answer bytes | counted |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (process.env.BENCH_RECORD !== '0') appendResults(section);
}

main();
