/**
 * Run by `npm run bench` through bench/ledger/ledger.ts (compiled first): the sidecar's cost ledger. Side
 * by side in one run, against one upstream, the bare node:http proxy and the sidecar with its
 * stages added one at a time, for JSON and SSE answers of three sizes. Each stage's cost is the
 * difference between adjacent setups within a round; the ledger shows its median and its spread
 * over rounds, and GC pauses per request. Appends a section to bench/RESULTS.md unless
 * BENCH_RECORD=0 (or the settings were shortened).
 */
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { numberFrom } from '../proxy/bench-settings.js';
import type { ServerKind } from '../servers/child-messages.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { ANSWER_PATHS, type AnswerMode } from '../load/mcp-request.js';
import { measureCpu, type CpuMeasure } from '../support/measure-cpu.js';
import { median } from '../support/percentile.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';

/** The setups, each adding one stage to the one before; the first is the yardstick. */
const SETUPS: readonly { kind: ServerKind; label: string; stage: string }[] = [
  { kind: 'bare', label: 'bare node:http proxy', stage: '–' },
  { kind: 'proxy-unmetered', label: 'sidecar proxy, metering off', stage: 'forwarding' },
  { kind: 'proxy-classified', label: '+ identify the caller, classify the request', stage: 'classification' },
  { kind: 'proxy-unrecorded', label: '+ follow the answer to its outcome', stage: 'outcome' },
  { kind: 'sidecar', label: '+ tally, counters, 1 s SQLite flush (the sidecar)', stage: 'tally' },
  { kind: 'sidecar-deny-out', label: '+ a deny plan in force (modern traffic, outside it)', stage: 'gate' },
];
/**
 * Given to every proxy, the bare one too. In a process of about 8 to 16 MB of live heap (the bare
 * proxy with zod loaded, or the metering-off proxy), V8 re-starts incremental marking after every
 * mark-compact under 64 KB answers ("allocation limit", 8 MB of 24–32 MB): the metering-off proxy
 * then cost 60–90% more than the bare one while doing the same work. A larger initial old
 * generation keeps the limit clear of that; the full sidecar's larger heap stays clear of it
 * without the flag, and costs the same with it (bench/RESULTS.md, 2026-12-07 notes).
 */
const PROXY_FLAGS: readonly string[] = ['--initial-old-space-size=64'];
const MODES: readonly AnswerMode[] = ['json', 'sse'];
const SIZES: readonly { name: string; pad: number }[] = [
  { name: 'small', pad: 0 },
  { name: '4 KB', pad: 4096 },
  { name: '64 KB', pad: 65_536 },
];

const log = (line: string) => process.stderr.write(`${line}\n`);
const signed = (value: number, digits = 1) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

function pathOf(mode: AnswerMode, pad: number): string {
  return pad === 0 ? ANSWER_PATHS[mode] : `${ANSWER_PATHS[mode]}?pad=${pad}`;
}

async function main(): Promise<void> {
  const rounds = Math.round(numberFrom(process.env, 'LEDGER_ROUNDS', 3));
  const seconds = numberFrom(process.env, 'LEDGER_SECONDS', 2);
  const connections = Math.round(numberFrom(process.env, 'LEDGER_CONNECTIONS', 16));
  const shortened = ['LEDGER_ROUNDS', 'LEDGER_SECONDS', 'LEDGER_CONNECTIONS'].some((name) => (process.env[name] ?? '') !== '');
  const startedAt = new Date();
  const began = performance.now();
  const upstream = await spawnServer('upstream');
  const children: ServerChild[] = [];
  // mode:size:kind → one measure per round
  const measured = new Map<string, CpuMeasure[]>();
  try {
    for (const setup of SETUPS) children.push(await spawnServer(setup.kind, { upstream: upstream.url, nodeFlags: PROXY_FLAGS }));
    log('warming every setup…');
    for (const mode of MODES) for (const size of SIZES) for (const child of children) await measureCpu(child, pathOf(mode, size.pad), connections, 1);
    for (let round = 1; round <= rounds; round += 1) {
      for (const mode of MODES) {
        for (const size of SIZES) {
          // Reversed every other round, so no setup always follows the one that heated the machine.
          for (const child of round % 2 === 1 ? children : [...children].reverse()) {
            const path = pathOf(mode, size.pad);
            await measureCpu(child, path, connections, 0.5);
            const result = await measureCpu(child, path, connections, seconds);
            const key = `${mode}:${size.name}:${child.kind}`;
            measured.set(key, [...(measured.get(key) ?? []), result]);
            log(`round ${round} ${mode.padEnd(4)} ${size.name.padEnd(5)} ${child.kind.padEnd(17)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s ${result.cpuMicros.toFixed(1)} µs CPU/req ${result.gcMicros.toFixed(2)} µs GC/req`);
          }
        }
      }
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await upstream.stop();
  }

  const rows: string[] = [];
  for (const mode of MODES) {
    for (const size of SIZES) {
      const bare = measured.get(`${mode}:${size.name}:bare`)!;
      SETUPS.forEach((setup, index) => {
        const mine = measured.get(`${mode}:${size.name}:${setup.kind}`)!;
        const cpu = median(mine.map((m) => m.cpuMicros));
        const gc = median(mine.map((m) => m.gcMicros));
        const rate = median(mine.map((m) => m.requestsPerSecond));
        // Differences within a round, so a noisy round moves both sides alike.
        const previous = index === 0 ? undefined : measured.get(`${mode}:${size.name}:${SETUPS[index - 1]!.kind}`)!;
        const steps = previous === undefined ? [] : mine.map((m, round) => m.cpuMicros - previous[round]!.cpuMicros);
        const step = steps.length === 0 ? '–' : `${signed(median(steps))} [${signed(Math.min(...steps))}, ${signed(Math.max(...steps))}]`;
        const ratios = mine.map((m, round) => bare[round]!.cpuMicros / m.cpuMicros);
        rows.push(`| ${mode === 'json' ? 'JSON' : 'SSE'} | ${size.name} | ${setup.label} | ${Math.round(rate)} | ${cpu.toFixed(1)} | ${setup.stage} | ${step} | ${index === 0 ? '1.000' : median(ratios).toFixed(3)} | ${gc.toFixed(2)} |`);
      });
    }
  }
  const section = [
    `## ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} — the sidecar's cost ledger (bench/ledger/ledger.ts)`,
    '',
    `- Machine: ${machineLine(describeMachine())}.`,
    `- Code: ${describeCode(dirname(RESULTS_FILE))}.`,
    `- One upstream (bench/load/upstream-server.ts; \`?pad=N\` makes the result's text N bytes), each proxy in its own process (Node flags: ${PROXY_FLAGS.join(' ')}), all tsc output in plain Node; the modern \`tools/call\` of \`npm run bench\`; closed loop, ${connections} connections; every setup warmed 1 s per answer, then ${rounds} rounds (order reversed every other round) of 0.5 s warm-up and ${seconds} s measured per setup and answer.`,
    '- CPU µs/req: user + system time of the proxy process over the measured phase, per answer. GC µs/req: its main-thread GC pauses over the same phase, per answer.',
    '- Stage: what the row adds to the row above. Stage µs: the difference in CPU per request to the row above, taken within each round; the median, and [least, most] over rounds. CPU ratio: bare ÷ this setup, per round, median (1.00 costs what the bare proxy costs).',
    `- Whole run: ${Math.round((performance.now() - began) / 1000)} s.`,
    '',
    '| answer | size | setup | req/s | CPU µs/req | stage | stage µs [spread] | CPU ratio | GC µs/req |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (process.env.BENCH_RECORD === '1' || (process.env.BENCH_RECORD !== '0' && !shortened)) {
    appendResults(section);
    log(`appended to ${RESULTS_FILE}`);
  }
}

await main();
