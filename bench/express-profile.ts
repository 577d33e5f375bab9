/**
 * Where the Express middleware's cost goes: each app child of bench/express.ts (plain, then metered,
 * one at a time) runs under `--cpu-prof` through the same closed-loop load, and the two profiles are
 * compared per request: self time per function in µs/req, and what the metered app spends more.
 *   npx tsx bench/express-profile.ts            (BENCH_PROFILE_SECONDS=10 by default)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClosedLoop } from './run-closed-loop.js';
import { summarizeCpuProfile } from './summarize-cpu-profile.js';

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const CONNECTIONS = 32;
const TREE_ROOT = fileURLToPath(new URL('../', import.meta.url));
type Variant = 'plain' | 'metered';

function reply<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: { type: string } & T) => {
      if (message.type !== type) return;
      child.off('message', on);
      resolve(message);
    };
    child.on('message', on);
  });
}

/** Busy (non-idle) sampled microseconds of a profile: the shares summarizeCpuProfile gives are of this. */
function busyMicros(path: string): number {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as { nodes: { id: number; callFrame: { functionName: string } }[]; samples: number[]; timeDeltas: number[] };
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  return profile.samples.reduce((sum, id, i) => sum + (idle.has(id) ? 0 : (profile.timeDeltas[i] ?? 0)), 0);
}

interface Profiled {
  responses: number;
  /** µs per request, by function: self and inclusive. */
  self: Map<string, number>;
  total: Map<string, number>;
  busyPerRequest: number;
}

async function profile(variant: Variant): Promise<Profiled> {
  const dir = mkdtempSync(join(tmpdir(), `mcp-sunset-express-prof-${variant}-`));
  const child = fork(fileURLToPath(new URL('./express-app-child.ts', import.meta.url)), [variant], {
    execArgv: ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${dir}`],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await reply<{ url: string }>(child, 'ready');
  await runClosedLoop({ url: new URL(url), path: '/mcp', connections: CONNECTIONS, durationSeconds: 2 });
  const { responses } = await runClosedLoop({ url: new URL(url), path: '/mcp', connections: CONNECTIONS, durationSeconds: SECONDS });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await exited;
  // The main thread's profile; tsx's loader thread writes its own, which is left out.
  const file = readdirSync(dir).find((name) => new RegExp(`\\.${child.pid}\\.0\\.\\d+\\.cpuprofile$`).test(name));
  if (file === undefined) throw new Error(`no main-thread profile in ${dir}`);
  const path = join(dir, file);
  const busy = busyMicros(path);
  const perRequest = (percent: number) => (busy * percent) / 100 / responses;
  const spots = summarizeCpuProfile(path, TREE_ROOT).filter((s) => s.name !== '(idle)');
  process.stdout.write(`${variant}: ${responses} responses in ${SECONDS} s, profile ${path}\n`);
  return {
    responses,
    self: new Map(spots.map((s) => [s.name, perRequest(s.selfPercent)])),
    total: new Map(spots.map((s) => [s.name, perRequest(s.totalPercent)])),
    busyPerRequest: busy / responses,
  };
}

const row = (value: number, name: string) => `  ${value.toFixed(1).padStart(7)} µs/req  ${name}`;

process.stdout.write(`1-minute load average at the start: ${loadavg()[0]!.toFixed(2)}\n`);
const plain = await profile('plain');
const metered = await profile('metered');
process.stdout.write(`load average at the end: ${loadavg()[0]!.toFixed(2)}\n\n`);
process.stdout.write(`Busy main-thread time per request: plain ${plain.busyPerRequest.toFixed(1)} µs, metered ${metered.busyPerRequest.toFixed(1)} µs\n`);

process.stdout.write('\nMetered, top self time:\n');
for (const [name, us] of [...metered.self].sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`${row(us, name)}\n`);

process.stdout.write('\nSelf time the metered app spends more than the plain one (per request):\n');
const names = new Set([...plain.self.keys(), ...metered.self.keys()]);
const more = [...names].map((name) => [name, (metered.self.get(name) ?? 0) - (plain.self.get(name) ?? 0)] as const);
for (const [name, us] of more.sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`${row(us, name)}\n`);

process.stdout.write('\nThe middleware (server/express, server/sidecar, server/metering), inclusive:\n');
const ours = [...metered.total].filter(([name]) => / server\/(express|sidecar|metering|protocol)\//.test(name));
for (const [name, us] of ours.sort((a, b) => b[1] - a[1]).slice(0, 30)) process.stdout.write(`${row(us, name)}\n`);
process.exit(0);
