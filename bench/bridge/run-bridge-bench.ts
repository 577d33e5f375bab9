/**
 * Run by `npx tsx bench/bridge/bridge.ts` (compiled first, see run-compiled.ts): the latency the legacy
 * bridge adds for a 2025-era client. The same legacy session workload against
 * A direct: the v2 SDK's dual-era server answering it itself (its stateless legacy leg);
 * B bridge: `serve --bridge` in front of the v2 SDK's modern-only server;
 * C sidecar: the sidecar without the bridge in front of the dual-era server (the hop alone).
 * Every server in its own process; the three setups measured in turn, round by round, in every
 * order (ABBA-like); fixed rate, one sequential connection and max throughput each round.
 * Prints the results and appends them to bench/RESULTS.md.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { BRIDGE_SETUPS, summarizeBridgeSamples, type BridgeSample, type BridgeSetup, type SetupShapes } from './bridge-report.js';
import { readBridgeSettings, type BridgeSettings } from './bridge-settings.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine } from '../support/describe-machine.js';
import { formatBridgeResults } from './format-bridge-results.js';
import { callOnce, openLegacySession } from './legacy-session.js';
import { runClosedLoop } from '../load/run-closed-loop.js';
import { runOpenLoop } from '../load/run-open-loop.js';
import { SDK_SERVER_PATH } from './sdk-server.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';

// Every order of the three once per six rounds, each followed by its mirror image (ABC, CBA, …):
// no setup always runs first, or always right after the same other one.
const ORDERS: readonly (readonly BridgeSetup[])[] = [
  ['direct', 'bridge', 'sidecar'],
  ['sidecar', 'bridge', 'direct'],
  ['bridge', 'sidecar', 'direct'],
  ['direct', 'sidecar', 'bridge'],
  ['sidecar', 'direct', 'bridge'],
  ['bridge', 'direct', 'sidecar'],
];

interface Path {
  endpoint: URL;
  sidecar: ServerChild | undefined;
  server: ServerChild;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuOf = async (child: ServerChild | undefined) => (child === undefined ? 0 : (await child.stats()).cpuMicros);

async function healthOf(child: ServerChild): Promise<Record<string, unknown>> {
  const health = (await child.stats()).health;
  const store = (health as { store?: { available?: boolean; error?: string } }).store;
  // Without its database the sidecar keeps every count in memory: a different, cheaper workload.
  if (store?.available !== true) throw new Error(`the ${child.kind} child has no database: ${store?.error ?? 'unknown'}`);
  return health;
}

/** How each setup answers the legacy client; and proof that B's server cannot serve it alone. */
async function checkSetups(paths: Record<BridgeSetup, Path>, modern: ServerChild): Promise<Record<BridgeSetup, SetupShapes>> {
  const refused = await openLegacySession(new URL(SDK_SERVER_PATH, modern.url)).then(() => false, () => true);
  if (!refused) throw new Error('the modern-only server served a legacy initialize: the bridge would not be needed');
  const shapes = {} as Record<BridgeSetup, SetupShapes>;
  for (const setup of BRIDGE_SETUPS) {
    const session = await openLegacySession(paths[setup].endpoint);
    shapes[setup] = { sessionId: session.sessionId !== undefined, initialize: session.initialize, toolCall: await callOnce(paths[setup].endpoint, session) };
  }
  return shapes;
}

/**
 * Max-throughput load until `initialWarmupRequests` answers: the JIT needs requests, not seconds,
 * and the bridge path takes several times longer than direct to get them. Answers how many it got.
 */
async function warm(path: Path, settings: BridgeSettings): Promise<number> {
  const session = await openLegacySession(path.endpoint);
  const deadline = performance.now() + settings.initialWarmupSeconds * 1000;
  let answers = 0;
  while (answers < settings.initialWarmupRequests && performance.now() < deadline) {
    const seconds = Math.min(1, Math.max(0.1, (deadline - performance.now()) / 1000));
    answers += (await runClosedLoop({ url: path.endpoint, path: path.endpoint.pathname, connections: settings.maxConnections, durationSeconds: seconds, request: session.request })).responses;
  }
  return answers;
}

async function measure(setup: BridgeSetup, path: Path, round: number, settings: BridgeSettings): Promise<BridgeSample> {
  // A fresh session each round, as a client would open one; its handshake is timed too.
  const session = await openLegacySession(path.endpoint);
  const target = { url: path.endpoint, path: path.endpoint.pathname, request: session.request };
  await runClosedLoop({ ...target, connections: 1, durationSeconds: settings.warmupSeconds });
  const open = await runOpenLoop({ ...target, rate: settings.openRate, durationSeconds: settings.openSeconds });
  const sequential = await runClosedLoop({ ...target, connections: 1, durationSeconds: settings.sequentialSeconds });
  const before = await Promise.all([cpuOf(path.sidecar), cpuOf(path.server)]);
  const max = await runClosedLoop({ ...target, connections: settings.maxConnections, durationSeconds: settings.maxSeconds });
  const after = await Promise.all([cpuOf(path.sidecar), cpuOf(path.server)]);
  const perAnswer = (i: 0 | 1) => (after[i] - before[i]) / Math.max(1, max.responses);
  return { round, setup, initializeMs: session.initializeMs, open, sequential, max, sidecarCpuMicros: path.sidecar === undefined ? undefined : perAnswer(0), serverCpuMicros: perAnswer(1) };
}

async function main(): Promise<void> {
  const settings = readBridgeSettings(process.env);
  const startedAt = new Date();
  const began = performance.now();
  const loadBefore = loadavg()[0]!;

  const [dual, modern] = await Promise.all([spawnServer('sdk-dual'), spawnServer('sdk-modern')]);
  const sidecar = await spawnServer('sidecar', { upstream: new URL(SDK_SERVER_PATH, dual.url) });
  const bridge = await spawnServer('sidecar-bridge', { upstream: new URL(SDK_SERVER_PATH, modern.url) });
  const paths: Record<BridgeSetup, Path> = {
    direct: { endpoint: new URL(SDK_SERVER_PATH, dual.url), sidecar: undefined, server: dual },
    bridge: { endpoint: new URL(SDK_SERVER_PATH, bridge.url), sidecar: bridge, server: modern },
    sidecar: { endpoint: new URL(SDK_SERVER_PATH, sidecar.url), sidecar, server: dual },
  };
  const samples: BridgeSample[] = [];
  let shapes: Record<BridgeSetup, SetupShapes>;
  const health: Record<'sidecar' | 'bridge', Record<string, unknown>> = { sidecar: {}, bridge: {} };
  const warmed: Record<BridgeSetup, number> = { direct: 0, bridge: 0, sidecar: 0 };
  try {
    await Promise.all([healthOf(sidecar), healthOf(bridge)]);
    shapes = await checkSetups(paths, modern);
    // The first seconds of each server are JIT compilation; without this round 1 measures the compiler.
    log(`warming every setup for ${settings.initialWarmupRequests} answers (at most ${settings.initialWarmupSeconds} s)…`);
    for (const setup of BRIDGE_SETUPS) warmed[setup] = await warm(paths[setup], settings);
    for (let round = 1; round <= settings.rounds; round += 1) {
      for (const setup of ORDERS[(round - 1) % ORDERS.length]!) {
        const sample = await measure(setup, paths[setup], round, settings);
        samples.push(sample);
        const failures = sample.open.failures + sample.sequential.failures + sample.max.failures;
        log(
          `round ${round} ${setup.padEnd(7)} init ${sample.initializeMs.toFixed(1)} ms | @${settings.openRate}/s p50 ${sample.open.p50.toFixed(2)} p99 ${sample.open.p99.toFixed(2)} ms | ` +
            `sequential p50 ${sample.sequential.p50.toFixed(2)} p99 ${sample.sequential.p99.toFixed(2)} ms ${Math.round(sample.sequential.requestsPerSecond)}/s | ` +
            `max ${Math.round(sample.max.requestsPerSecond)}/s, CPU µs/req ${sample.sidecarCpuMicros?.toFixed(0) ?? '–'} + ${sample.serverCpuMicros.toFixed(0)}${failures > 0 ? ` | ${failures} FAILED` : ''}`,
        );
      }
    }
    await sleep(1200); // one more flush, so the counters below include the last phase
    [health.sidecar, health.bridge] = await Promise.all([healthOf(sidecar), healthOf(bridge)]);
  } finally {
    await Promise.all([sidecar.stop(), bridge.stop()]);
    await Promise.all([dual.stop(), modern.stop()]);
  }

  const section = formatBridgeResults({
    startedAt,
    elapsedSeconds: (performance.now() - began) / 1000,
    machine: describeMachine(),
    load: [loadBefore, loadavg()[0]!],
    code: describeCode(dirname(RESULTS_FILE)),
    autocannonVersion: (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version,
    settings,
    shapes,
    warmed,
    ...summarizeBridgeSamples(samples),
    health,
  });
  console.log(`\n${section}`);
  if (settings.record) {
    appendResults(section);
    log(`appended to ${RESULTS_FILE}`);
  } else {
    log('not recorded in bench/RESULTS.md (smoke settings; BENCH_RECORD=1 forces it)');
  }
}

await main();
