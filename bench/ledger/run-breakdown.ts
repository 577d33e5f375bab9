/**
 * Run by `npx tsx bench/ledger/breakdown.ts` (compiled first): splits the sidecar's per-request cost
 * into layers by running, at max throughput against the same upstream, the bare proxy, the
 * sidecar's reverse proxy with no metering, the same with metering but no recording, and the
 * full sidecar. Each step's extra CPU per request is what that layer costs. About two and a
 * half minutes; appends a section to RESULTS.md unless BENCH_RECORD=0.
 */
import { dirname } from 'node:path';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import type { AnswerMode } from '../load/mcp-request.js';
import { ANSWER_PATHS } from '../load/mcp-request.js';
import type { ServerKind } from '../servers/child-messages.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { median } from '../support/percentile.js';
import { measureCpu } from '../support/measure-cpu.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';

const LAYERS: readonly { kind: ServerKind; label: string }[] = [
  { kind: 'bare', label: 'bare pass-through proxy' },
  { kind: 'proxy-unmetered', label: 'sidecar reverse proxy, metering off' },
  { kind: 'proxy-unrecorded', label: '+ identify, classify, follow answer (record is a no-op)' },
  { kind: 'sidecar', label: '+ tally, prom-client counters, 1 s SQLite flush (full sidecar)' },
];
const MODES: readonly AnswerMode[] = ['json', 'sse'];
const ROUNDS = 3;
const CONNECTIONS = 32;
const INITIAL_WARMUP_SECONDS = 3;
const WARMUP_SECONDS = 1;
const MEASURE_SECONDS = 4;

interface Measured {
  requestsPerSecond: number[];
  cpuMicros: number[];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function measure(child: ServerChild, mode: AnswerMode, seconds: number): Promise<{ requestsPerSecond: number; cpuMicros: number }> {
  return measureCpu(child, ANSWER_PATHS[mode], CONNECTIONS, seconds);
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const upstream = await spawnServer('upstream');
  const children: ServerChild[] = [];
  const results = new Map<string, Measured>();
  try {
    for (const layer of LAYERS) children.push(await spawnServer(layer.kind, { upstream: upstream.url }));
    for (const mode of MODES) for (const child of children) await measure(child, mode, INITIAL_WARMUP_SECONDS);
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const mode of MODES) {
        for (const child of round % 2 === 1 ? children : [...children].reverse()) {
          await measure(child, mode, WARMUP_SECONDS);
          const { requestsPerSecond, cpuMicros } = await measure(child, mode, MEASURE_SECONDS);
          const key = `${mode}:${child.kind}`;
          const entry = results.get(key) ?? { requestsPerSecond: [], cpuMicros: [] };
          entry.requestsPerSecond.push(requestsPerSecond);
          entry.cpuMicros.push(cpuMicros);
          results.set(key, entry);
          log(`round ${round} ${mode.padEnd(4)} ${child.kind.padEnd(16)} ${Math.round(requestsPerSecond).toString().padStart(6)} req/s ${cpuMicros.toFixed(1)} µs CPU/req`);
        }
      }
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await upstream.stop();
  }

  const rows = MODES.flatMap((mode) => {
    let previous: number | undefined;
    return LAYERS.map((layer) => {
      const entry = results.get(`${mode}:${layer.kind}`)!;
      const cpu = median(entry.cpuMicros);
      const step = previous === undefined ? '–' : `${cpu - previous >= 0 ? '+' : ''}${(cpu - previous).toFixed(1)}`;
      previous = cpu;
      return `| ${mode === 'json' ? 'JSON' : 'SSE'} | ${layer.label} | ${Math.round(median(entry.requestsPerSecond))} | ${cpu.toFixed(1)} | ${step} |`;
    });
  });
  const section = [
    `## ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} — sidecar cost breakdown (bench/ledger/breakdown.ts)`,
    '',
    `- Machine: ${machineLine(describeMachine())}.`,
    `- Code: ${describeCode(dirname(RESULTS_FILE))}.`,
    `- Same upstream and requests as \`npm run bench\`; each proxy in its own process; closed loop, ${CONNECTIONS} connections, ` +
      `${INITIAL_WARMUP_SECONDS} s warm-up per proxy and answer, then ${ROUNDS} rounds (order reversed every other round) of ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s measured; medians.`,
    '- CPU µs/req: user+system time of the proxy process over the measured phase, divided by the answers produced.',
    '',
    '| answer | proxy | req/s | CPU µs/req | step |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (process.env.BENCH_RECORD !== '0') appendResults(section);
}

await main();
