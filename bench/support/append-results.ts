import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Set by run-compiled.ts: from the compiled copy, import.meta.url no longer points into bench/.
export const RESULTS_FILE = process.env.BENCH_RESULTS_FILE ?? fileURLToPath(new URL('../RESULTS.md', import.meta.url));

const HEADER = [
  '# Benchmark results',
  '',
  'Targets: sidecar ≥ 0.95× the bare proxy\'s throughput; ≤ 0.5 ms p99 added over direct at the fixed',
  'moderate rate. Sections are appended, newest last, by:',
  '',
  '- `npm run bench` (bench/proxy/run.ts, about 4 minutes): direct vs bare proxy vs sidecar, JSON and SSE,',
  '  max throughput and fixed rate, plus classifier and metering micro-benchmarks.',
  '- `npx tsx bench/ledger/breakdown.ts` (about 2.5 minutes): the sidecar\'s CPU per request split by layer.',
  '- `npx tsx bench/policy/policy.ts` (also the last step of `npm run bench`, about 2 minutes): the retirement',
  '  policy\'s cost per request, decide() alone and the sidecar with and without a plan side by side.',
  '- `npx tsx bench/bridge/bridge.ts` (about 3 minutes): the latency the legacy bridge (`serve --bridge` in front of a',
  '  modern-only server) adds for a 2025-era client, side by side with a dual-era server answering it directly and',
  '  with the sidecar without the bridge; fixed rate, one sequential connection, max throughput. Smoke runs: `BENCH_BRIDGE_*`',
  '  (see bench/bridge/bridge-settings.ts).',
  '- `npx tsx bench/batch/batch.ts` (seconds): a JSON-RPC batch of up to 100,000 messages under a cut, the sidecar\'s CPU beside `JSON.parse` of the same body, and the answer\'s size.',
  '- `npm run soak` (bench/soak/soak.ts, about 1–1.5 minutes): hostile-input fuzz, 10⁵ distinct identities, and',
  '  SIGKILL under steady traffic, against the sidecar in a child process.',
  '',
  '`BENCH_CPU_PROFILE=1 BENCH_ROUNDS=1 npm run bench` profiles both proxies and prints their hot spots',
  '(not recorded). Shorter smoke runs: `BENCH_ROUNDS`, `BENCH_CLOSED_SECONDS`, `BENCH_OPEN_SECONDS`, … (see',
  'bench/proxy/bench-settings.ts); they are not recorded unless `BENCH_RECORD=1`.',
  '`BENCH_OUT_DIR` compiles the benchmarks somewhere other than `node_modules/.cache/` (a folder from',
  'which `node_modules` resolves), for checkouts that share one `node_modules`.',
  '',
].join('\n');

/** Appends one dated section, creating the file with its header the first time. */
export function appendResults(section: string): void {
  if (!existsSync(RESULTS_FILE)) writeFileSync(RESULTS_FILE, HEADER);
  appendFileSync(RESULTS_FILE, `\n${section}`);
}
