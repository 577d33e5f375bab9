import type { BenchReport, ModeRatios, SetupSummary } from './bench-report.js';
import { machineLine } from '../support/describe-machine.js';
import type { AnswerMode } from '../load/mcp-request.js';

export const THROUGHPUT_TARGET = 0.95;
export const ADDED_P99_TARGET_MS = 0.5;
/** The sidecar, metering included, no dearer in CPU per request than the bare pass-through proxy. */
export const CPU_RATIO_TARGET = 1;

const ms = (value: number) => value.toFixed(2);
const signedMs = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
const ratio = (value: number) => value.toFixed(3);
const micros = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(1));
const verdict = (met: boolean) => (met ? '**met**' : '**missed**');
const MODE_LABEL: Record<AnswerMode, string> = { json: 'JSON', sse: 'SSE' };

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function microByName(report: BenchReport, prefix: string): number {
  return report.micro.find((m) => m.name.startsWith(prefix))?.nsPerOp ?? Number.NaN;
}

function interpret(report: BenchReport): string[] {
  const lines: string[] = [];
  const of = (mode: AnswerMode, setup: SetupSummary['setup']) => report.summaries.find((s) => s.mode === mode && s.setup === setup)!;
  for (const r of report.ratios) {
    const label = MODE_LABEL[r.mode];
    const spread = `${ratio(Math.min(...r.sidecarOverBareByRound))}–${ratio(Math.max(...r.sidecarOverBareByRound))}`;
    lines.push(
      `- ${label}: the bare proxy's CPU per request was ${ratio(r.cpuBareOverSidecar)}× the sidecar's (median of ${r.cpuPairs} pairs, middle half ${ratio(r.cpuBareOverSidecarQuartiles[0])}–${ratio(r.cpuBareOverSidecarQuartiles[1])}; target ≥ ${CPU_RATIO_TARGET.toFixed(2)}: ${verdict(r.cpuBareOverSidecar >= CPU_RATIO_TARGET)}); ` +
        `the sidecar reached ${ratio(r.sidecarOverBare)}× the bare proxy's throughput (rounds ${spread}; target ≥ ${THROUGHPUT_TARGET}: ${verdict(r.sidecarOverBare >= THROUGHPUT_TARGET)}) ` +
        `and added ${signedMs(r.sidecarAddedP99)} ms p99 over direct at ${report.settings.openRate} req/s (bare proxy: ${signedMs(r.bareAddedP99)} ms; target ≤ ${ADDED_P99_TARGET_MS} ms: ${verdict(r.sidecarAddedP99 <= ADDED_P99_TARGET_MS)}).`,
    );
  }
  const meterNs = microByName(report, 'HttpMeter exchange, JSON') + microByName(report, 'identify caller') + microByName(report, 'Tally.add');
  const cpuGaps = (['json', 'sse'] as const).map((mode) => {
    const gap = (of(mode, 'sidecar').proxyCpuMicros ?? Number.NaN) - (of(mode, 'bare').proxyCpuMicros ?? Number.NaN);
    return `${micros(gap)} µs (${MODE_LABEL[mode]})`;
  });
  const metering = (report.sidecarHealth as { metering?: { droppedEvents?: number; failedFlushes?: number } }).metering;
  if ((metering?.droppedEvents ?? 0) > 0 || (metering?.failedFlushes ?? 0) > 0) {
    lines.push('- **Warning:** the sidecar\'s flushes failed during this run, so it was not doing its normal work; these numbers do not describe a healthy sidecar.');
  }
  lines.push(
    `- Per request the sidecar process burned ${cpuGaps.join(', ')} more CPU than the bare proxy. The metering work measured in isolation ` +
      `(classify + exchange lifecycle + caller HMAC + tally, JSON answer) is ≈ ${micros(meterNs / 1000)} µs of that; the rest is the sidecar's ` +
      'extra plumbing (the request body is buffered before forwarding, raw header filtering both ways, a copy of every answer chunk decoded to text, ' +
      'closures and objects per request and the GC they cause); `npx tsx bench/ledger/breakdown.ts` splits it by layer.',
  );
  const gcPauses = (['json', 'sse'] as const).map(
    (mode) => `${micros(of(mode, 'bare').proxyGcMicros)} µs bare, ${micros(of(mode, 'sidecar').proxyGcMicros)} µs sidecar (${MODE_LABEL[mode]})`,
  );
  lines.push(
    `- GC pauses per request: ${gcPauses.join('; ')}. Objects that outlive a request (held by a table or a timer, or by a dead object already ` +
      'promoted) survive young collections and are promoted; that shows here long before it shows in the CPU ratio.',
  );
  lines.push(
    `- On ${report.machine.cores} shared cores the load generator, the upstream and the proxy compete for CPU, so proxy CPU per request converts ` +
      'almost directly into lost throughput; direct runs one process fewer, which is why it is far ahead of both proxies and why bare/direct is well below 1.',
  );
  lines.push(
    `- Fixed-rate latencies count from the scheduled send time; the generator's own timer lag (p99 ${ms(median(report.summaries.map((s) => s.sendLagP99)))} ms, ` +
      'same for every setup) is inside every number, so only differences between setups are meaningful. With ' +
      `${Math.round(report.settings.openRate * report.settings.openSeconds)} requests per run, p99 rests on the slowest ~${Math.round(report.settings.openRate * report.settings.openSeconds / 100)} answers: ` +
      `direct's own p99 ranged ${report.ratios.map((r) => `${ms(Math.min(...r.directP99ByRound))}–${ms(Math.max(...r.directP99ByRound))} ms (${MODE_LABEL[r.mode]})`).join(', ')} across rounds, ` +
      'so an added p99 below that spread is not resolved by this run; the added p50 is the steadier signal.',
  );
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/** One dated Markdown section: machine, settings, results, ratios, interpretation. */
export function formatResults(report: BenchReport): string {
  const { machine, settings } = report;
  const stamp = report.startedAt.toISOString().replace(/\.\d+Z$/, 'Z');
  const health = report.sidecarHealth as { metering?: Record<string, unknown> };
  const metering = health.metering ?? {};
  const openCount = Math.round(settings.openRate * settings.openSeconds);

  const resultRows = report.summaries.map((s) => [
    MODE_LABEL[s.mode],
    s.setup,
    Math.round(s.requestsPerSecond).toString(),
    ms(s.closedP50),
    ms(s.closedP99),
    ms(s.openP50),
    ms(s.openP99),
    ms(s.openServiceP99),
    micros(s.proxyCpuMicros),
    micros(s.proxyGcMicros),
    micros(s.upstreamCpuMicros),
    s.failures.toString(),
  ]);
  const ratioRows = report.ratios.map((r: ModeRatios) => [
    MODE_LABEL[r.mode],
    `${ratio(r.cpuBareOverSidecar)} (${verdict(r.cpuBareOverSidecar >= CPU_RATIO_TARGET)})`,
    `${ratio(r.cpuBareOverSidecarQuartiles[0])}–${ratio(r.cpuBareOverSidecarQuartiles[1])}`,
    r.cpuBareOverSidecarByRound.map(ratio).join(', '),
    `${ratio(r.sidecarOverBare)} (${verdict(r.sidecarOverBare >= THROUGHPUT_TARGET)})`,
    r.sidecarOverBareByRound.map(ratio).join(', '),
    ratio(r.bareOverDirect),
    `${signedMs(r.sidecarAddedP99)} (${verdict(r.sidecarAddedP99 <= ADDED_P99_TARGET_MS)})`,
    r.sidecarAddedP99ByRound.map(signedMs).join(', '),
    signedMs(r.bareAddedP99),
    signedMs(r.sidecarAddedP50),
    signedMs(r.bareAddedP50),
  ]);

  return [
    `## ${stamp}`,
    '',
    `- Machine: ${machineLine(machine)}; shared and noisy.`,
    `- Code: ${report.code}.`,
    `- Processes: upstream, bare proxy and sidecar each in its own child process (started once, used by every round); load generators and micro-benchmarks in the parent. All of it runs as tsc output in plain Node, as production does.`,
    `- Sidecar: \`startService\` with a real SQLite file in a temp dir, default config (1 s flush), log level silent.`,
    `- Requests: modern 2026-07-28 \`tools/call\` POSTs with \`_meta\`, mirrored \`Mcp-*\` headers and a bearer token; fresh id per request. ` +
      'JSON: one `application/json` result. SSE: `text/event-stream` with a progress notification event, then the result event.',
    `- Rounds: ${settings.rounds}, each JSON then SSE, setups in rotated order (round 1 direct→bare→sidecar, round 2 bare→sidecar→direct, …). Cells are medians over rounds.`,
    `- Closed loop (max throughput): autocannon ${report.autocannonVersion}, ${settings.connections} keep-alive connections, pipelining 1; every setup × answer warmed ${settings.initialWarmupSeconds} s before round 1, then ${settings.warmupSeconds} s warm-up before each ${settings.closedSeconds} s measurement.`,
    `- Open loop (fixed rate): ${settings.openRate} req/s for ${settings.openSeconds} s (${openCount} requests) over a node:http keep-alive agent; latency from each request's scheduled send time (no coordinated omission); the generator sleeps on a timer, then polls the event loop for the last 1.5 ms before each send to keep its own lag out of the numbers.`,
    `- CPU ratio: after the rounds, ${settings.cpuPairs} pairs per answer shape of ${settings.cpuPairSeconds} s closed-loop runs, bare proxy and sidecar back to back in alternating order (ABBA); each pair gives one ratio, and the median over pairs is the figure. The neighbours' load moves over seconds, so runs this short and this close see the same machine.`,
    `- Whole run: ${Math.round(report.elapsedSeconds)} s.`,
    '',
    '### Results',
    '',
    table(
      ['answer', 'setup', 'req/s', 'p50 ms', 'p99 ms', `p50 ms @${settings.openRate}/s`, `p99 ms @${settings.openRate}/s`, 'service p99 ms', 'proxy CPU µs/req', 'of it GC pauses µs/req', 'upstream CPU µs/req', 'failures'],
      resultRows,
    ),
    '',
    'req/s, p50 and p99 are from the closed loop; the `@rate` columns from the open loop; service p99 leaves out the generator\'s own send lag. CPU µs/req is user+system time of that server process over the closed-loop phase divided by the answers it produced; GC pauses are those of its main thread, as perf_hooks reports them.',
    '',
    '### Ratios',
    '',
    table(
      ['answer', `bare/sidecar CPU µs per request (≥ ${CPU_RATIO_TARGET.toFixed(2)})`, 'middle half of the pairs', 'per round', `sidecar/bare req/s (≥ ${THROUGHPUT_TARGET})`, 'per round', 'bare/direct req/s', `sidecar − direct p99 ms @${settings.openRate}/s (≤ ${ADDED_P99_TARGET_MS})`, 'per round', 'bare − direct p99 ms', 'sidecar − direct p50 ms', 'bare − direct p50 ms'],
      ratioRows,
    ),
    '',
    'Each ratio and difference is taken within a round (same minute, same noise), then the median over rounds. The CPU ratio divides the bare proxy\'s CPU per request by the sidecar\'s (each the whole server process, all its threads, over a closed loop): the steadier comparison on a shared machine, where throughput also moves with what the neighbours take. Its headline comes from its own phase after the rounds (see above); "per round" is the same ratio from the rounds\' longer closed loops, for comparison.',
    '',
    '### Classifier and metering micro-benchmarks (ns/op, median of 9 batches)',
    '',
    table(['operation', 'ns/op'], report.micro.map((m) => [m.name, Math.round(m.nsPerOp).toString()])),
    '',
    `Sidecar counters at the end of the run: ${metering.events ?? '?'} events metered, ${metering.meteringErrors ?? '?'} metering errors, ` +
      `${metering.droppedEvents ?? '?'} dropped, ${metering.failedFlushes ?? '?'} failed flushes, last flush ${metering.lastFlushAt ?? 'never'}.`,
    '',
    '### Interpretation',
    '',
    ...interpret(report),
    '',
  ].join('\n');
}
