/**
 * Run by `npm run bench:budget` through bench/budget/budget.ts (compiled first): the hot path's budget,
 * checked. In one run, against one upstream, the bare node:http proxy, the sidecar's proxy with
 * metering off, and the full sidecar, back to back in short runs whose order rotates, for JSON and
 * SSE answers. Prints PASS or FAIL for each line of the budget and exits 1 when any fails. Not
 * part of `npm test`: timing belongs in benchmarks, not tests.
 *
 * The budget (docs/performance.md), CPU per request on the bench machine:
 * - forwarding: the sidecar with metering off costs no more than the bare proxy (ratio ≥ 1.00);
 * - metering: the sidecar costs at most 6 µs (JSON) or 9 µs (SSE) more than the bare proxy.
 */
import { dirname } from 'node:path';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { numberFrom } from '../proxy/bench-settings.js';
import type { ServerKind } from '../servers/child-messages.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { ANSWER_PATHS, type AnswerMode } from '../load/mcp-request.js';
import { measureCpu } from '../support/measure-cpu.js';
import { median } from '../support/percentile.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';

export const BUDGET = {
  /** bare ÷ metering off, at least. */
  forwardingRatio: 1.0,
  /** sidecar − bare, µs of CPU per request, at most. */
  meteringMicros: { json: 6, sse: 9 } as Record<AnswerMode, number>,
};

const KINDS: readonly ServerKind[] = ['bare', 'proxy-unmetered', 'sidecar'];
const MODES: readonly AnswerMode[] = ['json', 'sse'];
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const pairs = Math.round(numberFrom(process.env, 'BUDGET_ROUNDS', 12));
  const seconds = numberFrom(process.env, 'BUDGET_SECONDS', 1.5);
  const connections = Math.round(numberFrom(process.env, 'BUDGET_CONNECTIONS', 16));
  const startedAt = new Date();
  const upstream = await spawnServer('upstream');
  const children = new Map<ServerKind, ServerChild>();
  const cpu = new Map<string, number[]>();
  try {
    for (const kind of KINDS) children.set(kind, await spawnServer(kind, { upstream: upstream.url }));
    for (const mode of MODES) for (const child of children.values()) await measureCpu(child, ANSWER_PATHS[mode], connections, 2);
    for (const mode of MODES) {
      for (let round = 0; round < pairs; round += 1) {
        // Every order in turn: none of the three always runs right after another has heated the machine.
        const order = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]!);
        if (round % 2 === 1) order.reverse();
        for (const kind of order) {
          const result = await measureCpu(children.get(kind)!, ANSWER_PATHS[mode], connections, seconds);
          const key = `${mode}:${kind}`;
          cpu.set(key, [...(cpu.get(key) ?? []), result.cpuMicros]);
        }
        log(`${mode} round ${round + 1}: ${KINDS.map((kind) => `${kind} ${cpu.get(`${mode}:${kind}`)!.at(-1)!.toFixed(1)} µs`).join(', ')}`);
      }
    }
  } finally {
    await Promise.all([...children.values()].map((child) => child.stop()));
    await upstream.stop();
  }

  const lines: string[] = [];
  let failed = false;
  for (const mode of MODES) {
    const bare = cpu.get(`${mode}:bare`)!;
    const off = cpu.get(`${mode}:proxy-unmetered`)!;
    const on = cpu.get(`${mode}:sidecar`)!;
    // Within each round, so both sides of a ratio saw the same machine.
    const forwarding = median(bare.map((b, i) => b / off[i]!));
    const extra = median(on.map((s, i) => s - bare[i]!));
    const metering = median(bare.map((b, i) => b / on[i]!));
    const forwardingOk = forwarding >= BUDGET.forwardingRatio;
    const meteringOk = extra <= BUDGET.meteringMicros[mode];
    failed ||= !forwardingOk || !meteringOk;
    const name = mode === 'json' ? 'JSON' : 'SSE';
    lines.push(`| ${name} | forwarding: bare ÷ metering off | ≥ ${BUDGET.forwardingRatio.toFixed(2)} | ${forwarding.toFixed(3)} (bare ${median(bare).toFixed(1)} µs, off ${median(off).toFixed(1)} µs) | ${forwardingOk ? 'PASS' : 'FAIL'} |`);
    lines.push(`| ${name} | metering: sidecar − bare, µs | ≤ ${BUDGET.meteringMicros[mode]} | ${extra >= 0 ? '+' : ''}${extra.toFixed(1)} (ratio ${metering.toFixed(3)}, sidecar ${median(on).toFixed(1)} µs) | ${meteringOk ? 'PASS' : 'FAIL'} |`);
  }
  const section = [
    `## ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} — hot-path budget check (bench/budget/budget.ts): ${failed ? 'FAIL' : 'PASS'}`,
    '',
    `- Machine: ${machineLine(describeMachine())}.`,
    `- Code: ${describeCode(dirname(RESULTS_FILE))}.`,
    `- The bare node:http proxy, the sidecar's proxy with metering off, and the sidecar (real SQLite, 1 s flush), each in its own process, against one upstream; the modern \`tools/call\` of \`npm run bench\`; closed loop, ${connections} connections; ${pairs} rounds per answer shape of ${seconds} s per setup, the order rotating; CPU µs per request of each proxy process; each figure is the median over rounds of the within-round ratio or difference.`,
    '',
    '| answer | budget line | budget | measured | result |',
    '| --- | --- | --- | --- | --- |',
    ...lines,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (process.env.BENCH_RECORD !== '0') {
    appendResults(section);
    log(`appended to ${RESULTS_FILE}`);
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
