/**
 * Where the Express middleware's cost goes: both app children of bench/express/express.ts run under
 * `--cpu-prof` and take the bench's closed-loop load in alternating one-second turns, and the two
 * profiles are compared per request: self time per function in µs/req, and what the metered app spends more.
 *   npx tsx bench/express/express-profile.ts   (BENCH_PROFILE_SECONDS=10, BENCH_PROFILE_INTERVAL_US=1000 by default)
 */
import type { ExpressAppReply } from './express-app-child.js';
import { nextReply } from '../support/next-reply.js';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runClosedLoop } from '../load/run-closed-loop.js';
import { summarizeCpuProfile } from '../support/summarize-cpu-profile.js';

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const INTERVAL_US = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 1000);
const CONNECTIONS = 32;
const TREE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
type Variant = 'plain' | 'metered';

const REPLY_TIMEOUT_MS = 60_000;
const reply = <T extends ExpressAppReply['type']>(child: ChildProcess, type: T) => nextReply<ExpressAppReply, T>(child, type, REPLY_TIMEOUT_MS);

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

interface Child {
  child: ChildProcess;
  url: URL;
  dir: string;
  responses: number;
}

async function start(variant: Variant): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), `mcp-sunset-express-prof-${variant}-`));
  const child = fork(fileURLToPath(new URL('./express-app-child.ts', import.meta.url)), [variant], {
    execArgv: ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await reply(child, 'ready');
  return { child, url: new URL(url), dir, responses: 0 };
}

async function stop(variant: Variant, app: Child): Promise<Profiled> {
  const exited = new Promise((resolve) => app.child.once('exit', resolve));
  app.child.send({ type: 'stop' });
  await exited;
  // The main thread's profile; tsx's loader thread writes its own, which is left out.
  const file = readdirSync(app.dir).find((name) => new RegExp(`\\.${app.child.pid}\\.0\\.\\d+\\.cpuprofile$`).test(name));
  if (file === undefined) throw new Error(`no main-thread profile in ${app.dir}`);
  const path = join(app.dir, file);
  const busy = busyMicros(path);
  const { responses } = app;
  const perRequest = (percent: number) => (busy * percent) / 100 / responses;
  const spots = summarizeCpuProfile(path, TREE_ROOT).filter((s) => s.name !== '(idle)');
  process.stdout.write(`${variant}: ${responses} responses measured, profile ${path}\n`);
  return {
    responses,
    self: new Map(spots.map((s) => [s.name, perRequest(s.selfPercent)])),
    total: new Map(spots.map((s) => [s.name, perRequest(s.totalPercent)])),
    busyPerRequest: busy / responses,
  };
}

const row = (value: number, name: string) => `  ${value.toFixed(1).padStart(7)} µs/req  ${name}`;

process.stdout.write(`1-minute load average at the start: ${loadavg()[0]!.toFixed(2)}\n`);
// Both children run at once and take the load in turns of one second, so a change in the machine's
// load falls on both profiles alike. Start-up and warm-up are in the profiles too; they are small
// next to the measured turns, and the same for both.
const apps: Record<Variant, Child> = { plain: await start('plain'), metered: await start('metered') };
for (const variant of ['plain', 'metered'] as const) await runClosedLoop({ url: apps[variant].url, path: '/mcp', connections: CONNECTIONS, durationSeconds: 2 });
for (let turn = 0; turn < SECONDS; turn++) {
  for (const variant of turn % 2 === 0 ? (['plain', 'metered'] as const) : (['metered', 'plain'] as const)) {
    apps[variant].responses += (await runClosedLoop({ url: apps[variant].url, path: '/mcp', connections: CONNECTIONS, durationSeconds: 1 })).responses;
  }
}
const plain = await stop('plain', apps.plain);
const metered = await stop('metered', apps.metered);
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
