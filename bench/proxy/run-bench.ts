/**
 * Run by `npm run bench` (bench/proxy/run.ts compiles first): the sidecar's cost against the same
 * upstream reached directly and through a bare pass-through proxy, at max throughput and at a
 * fixed moderate rate, for JSON and SSE answers, plus micro-benchmarks of the classifier and the
 * metering lifecycle. Prints the results and appends them to bench/RESULTS.md.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { SETUPS, summarizeSamples, type BenchReport, type CpuPair, type RoundSample, type SetupName } from './bench-report.js';
import { readBenchSettings } from './bench-settings.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine } from '../support/describe-machine.js';
import { formatResults } from './format-results.js';
import { ANSWER_PATHS, MCP_REQUEST_HEADERS, mcpRequestBody, type AnswerMode } from '../load/mcp-request.js';
import { runClosedLoop } from '../load/run-closed-loop.js';
import { runMicroBenchmarks } from '../micro/run-micro-benchmarks.js';
import { runOpenLoop } from '../load/run-open-loop.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';
import { summarizeCpuProfile } from '../support/summarize-cpu-profile.js';

const MODES: readonly AnswerMode[] = ['json', 'sse'];
// Profile frames are shown relative to the compiled tree's root: server/…, bench/….
const TREE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every setup must answer the same bytes: a proxy that altered the answer would not be comparable. */
async function checkTransparency(urls: Record<SetupName, URL>): Promise<void> {
  for (const mode of MODES) {
    const answers = await Promise.all(
      SETUPS.map(async (setup) => {
        const response = await fetch(new URL(ANSWER_PATHS[mode], urls[setup]), { method: 'POST', headers: MCP_REQUEST_HEADERS, body: mcpRequestBody(7) });
        return `${response.status} ${response.headers.get('content-type')}\n${await response.text()}`;
      }),
    );
    if (answers.some((answer) => answer !== answers[0])) throw new Error(`setups disagree on the ${mode} answer:\n${answers.join('\n---\n')}`);
  }
}

async function usage(child: ServerChild | undefined): Promise<{ cpuMicros: number; gcMicros: number }> {
  return child === undefined ? { cpuMicros: 0, gcMicros: 0 } : await child.stats();
}

/** Prints where a profiled child spent its busy time (main thread only: worker threads profile separately). */
function printHotSpots(profileDir: string, child: ServerChild): void {
  const mainThread = new RegExp(`\\.${child.pid}\\.0\\.\\d+\\.cpuprofile$`);
  for (const file of readdirSync(profileDir).filter((name) => mainThread.test(name))) {
    const spots = summarizeCpuProfile(join(profileDir, file), TREE_ROOT).filter((s) => s.name !== '(idle)');
    const line = (s: { name: string; selfPercent: number; totalPercent: number }) =>
      `  ${s.selfPercent.toFixed(1).padStart(5)}% self ${s.totalPercent.toFixed(1).padStart(5)}% total  ${s.name}`;
    console.log(`\n${child.kind} CPU profile ${join(profileDir, file)} (shares of busy time)\nTop self time:`);
    for (const s of [...spots].sort((a, b) => b.selfPercent - a.selfPercent).slice(0, 25)) console.log(line(s));
    const ours = spots.filter((s) => s.name.includes(' server/'));
    if (ours.length === 0) continue;
    console.log('Our code (server/), by total time:');
    for (const s of ours.sort((a, b) => b.totalPercent - a.totalPercent).slice(0, 25)) console.log(line(s));
  }
}

async function main(): Promise<void> {
  const settings = readBenchSettings(process.env);
  const startedAt = new Date();
  const began = performance.now();

  log('micro-benchmarks…');
  const micro = runMicroBenchmarks();

  const profileDir = settings.cpuProfile ? mkdtempSync(join(os.tmpdir(), 'mcp-sunset-prof-')) : undefined;
  const upstream = await spawnServer('upstream');
  const profiled = profileDir === undefined ? {} : { cpuProfileDir: profileDir };
  const bare = await spawnServer('bare', { upstream: upstream.url, ...profiled });
  const sidecar = await spawnServer('sidecar', { upstream: upstream.url, ...profiled });
  const urls: Record<SetupName, URL> = { direct: upstream.url, bare: bare.url, sidecar: sidecar.url };
  const proxies: Record<SetupName, ServerChild | undefined> = { direct: undefined, bare, sidecar };
  const samples: RoundSample[] = [];
  const cpuPairs: CpuPair[] = [];
  let sidecarHealth: Record<string, unknown> = {};

  try {
    const store = ((await sidecar.stats()).health as { store?: { available?: boolean; error?: string } }).store;
    // Without its database the sidecar keeps every count in memory: a different, cheaper workload.
    if (store?.available !== true) throw new Error(`the sidecar has no database: ${store?.error ?? 'unknown'}`);
    await checkTransparency(urls);
    // The first seconds of each server are JIT compilation; without this round 1 measures the compiler.
    log(`warming every setup for ${settings.initialWarmupSeconds} s…`);
    for (const mode of MODES) {
      for (const setup of SETUPS) {
        await runClosedLoop({ url: urls[setup], path: ANSWER_PATHS[mode], connections: settings.connections, durationSeconds: settings.initialWarmupSeconds });
      }
    }
    for (let round = 1; round <= settings.rounds; round += 1) {
      // Rotating the order spreads slow drift (thermal, neighbours) over every setup.
      const order = SETUPS.map((_, i) => SETUPS[(i + round - 1) % SETUPS.length]!);
      for (const mode of MODES) {
        for (const setup of order) {
          const target = { url: urls[setup], path: ANSWER_PATHS[mode] };
          await runClosedLoop({ ...target, connections: settings.connections, durationSeconds: settings.warmupSeconds });
          const [proxyBefore, upstreamBefore] = await Promise.all([usage(proxies[setup]), usage(upstream)]);
          const closed = await runClosedLoop({ ...target, connections: settings.connections, durationSeconds: settings.closedSeconds });
          const [proxyAfter, upstreamAfter] = await Promise.all([usage(proxies[setup]), usage(upstream)]);
          // Let the last closed-loop answers and any GC they left drain before the latency phase.
          await sleep(250);
          const open = await runOpenLoop({ ...target, rate: settings.openRate, durationSeconds: settings.openSeconds });
          samples.push({
            round,
            mode,
            setup,
            closed,
            open,
            proxyCpuMicros: setup === 'direct' ? undefined : (proxyAfter.cpuMicros - proxyBefore.cpuMicros) / closed.responses,
            proxyGcMicros: setup === 'direct' ? undefined : (proxyAfter.gcMicros - proxyBefore.gcMicros) / closed.responses,
            upstreamCpuMicros: (upstreamAfter.cpuMicros - upstreamBefore.cpuMicros) / closed.responses,
          });
          log(
            `round ${round} ${mode.padEnd(4)} ${setup.padEnd(7)} ${Math.round(closed.requestsPerSecond).toString().padStart(6)} req/s ` +
              `p99 ${closed.p99.toFixed(2)} ms | @${settings.openRate}/s p50 ${open.p50.toFixed(2)} p99 ${open.p99.toFixed(2)} ms` +
              `${closed.failures + open.failures > 0 ? ` | ${closed.failures + open.failures} FAILED` : ''}`,
          );
        }
      }
    }
    for (const mode of MODES) {
      log(`CPU ratio, ${mode}: ${settings.cpuPairs} pairs of ${settings.cpuPairSeconds} s…`);
      for (let pair = 0; pair < settings.cpuPairs; pair += 1) {
        // ABBA: neither proxy always runs first, right after the other has heated the machine.
        const order = pair % 2 === 0 ? (['bare', 'sidecar'] as const) : (['sidecar', 'bare'] as const);
        const micros = { bare: 0, sidecar: 0 };
        for (const setup of order) {
          const proxy = proxies[setup]!;
          const before = await usage(proxy);
          const closed = await runClosedLoop({ url: urls[setup], path: ANSWER_PATHS[mode], connections: settings.connections, durationSeconds: settings.cpuPairSeconds });
          const after = await usage(proxy);
          if (closed.failures > 0) throw new Error(`${closed.failures} requests failed through the ${setup} proxy in the CPU ratio phase`);
          micros[setup] = (after.cpuMicros - before.cpuMicros) / closed.responses;
        }
        cpuPairs.push({ mode, bareMicros: micros.bare, sidecarMicros: micros.sidecar });
      }
    }
    await sleep(1200); // one more flush, so the counters below include the last phase
    sidecarHealth = (await sidecar.stats()).health;
  } finally {
    await Promise.all([sidecar.stop(), bare.stop()]);
    await upstream.stop();
  }

  const { summaries, ratios } = summarizeSamples(samples, MODES, cpuPairs);
  const report: BenchReport = {
    startedAt,
    elapsedSeconds: (performance.now() - began) / 1000,
    machine: describeMachine(),
    settings,
    code: describeCode(dirname(RESULTS_FILE)),
    autocannonVersion: (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version,
    summaries,
    ratios,
    micro,
    sidecarHealth,
  };
  const section = formatResults(report);
  console.log(`\n${section}`);
  if (settings.record) {
    appendResults(section);
    log(`appended to ${RESULTS_FILE}`);
  } else {
    log('not recorded in bench/RESULTS.md (smoke or profiling settings; BENCH_RECORD=1 forces it)');
  }
  if (profileDir !== undefined) {
    printHotSpots(profileDir, bare);
    printHotSpots(profileDir, sidecar);
    log(`profiles kept in ${profileDir}`);
  }
}

await main();
