/**
 * The middleware's cost: max throughput of an Express MCP app (the v2 SDK's dual-era handler, modern
 * tools/call) with and without `mcp-sunset/express` in front, rounds alternating the order. Target:
 * metered ≥ 0.97× plain. Appends a dated section to bench/RESULTS.md unless BENCH_RECORD=0.
 *   npx tsx bench/express.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { appendResults } from './append-results.js';
import { describeCode } from './describe-code.js';
import { describeMachine, machineLine } from './describe-machine.js';
import { median } from './percentile.js';
import { runClosedLoop, type ClosedLoopResult } from './run-closed-loop.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_CLOSED_SECONDS ?? 5);
const WARM_SECONDS = 2;
const CONNECTIONS = 32;
type Variant = 'plain' | 'metered';

interface App {
  child: ChildProcess;
  url: URL;
}

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

async function start(variant: Variant): Promise<App> {
  const child = fork(fileURLToPath(new URL('./express-app-child.ts', import.meta.url)), [variant], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url } = await reply<{ url: string }>(child, 'ready');
  return { child, url: new URL(url) };
}

async function measure(app: App, seconds: number): Promise<ClosedLoopResult & { cpuMicrosPerRequest: number }> {
  app.child.send({ type: 'cpu' });
  const before = (await reply<{ usage: NodeJS.CpuUsage }>(app.child, 'cpu')).usage;
  const result = await runClosedLoop({ url: app.url, path: '/mcp', connections: CONNECTIONS, durationSeconds: seconds });
  app.child.send({ type: 'cpu' });
  const after = (await reply<{ usage: NodeJS.CpuUsage }>(app.child, 'cpu')).usage;
  const cpu = after.user - before.user + (after.system - before.system);
  return { ...result, cpuMicrosPerRequest: cpu / Math.max(1, result.responses) };
}

const startedAt = Date.now();
const loadBefore = loadavg()[0]!;
const apps: Record<Variant, App> = { plain: await start('plain'), metered: await start('metered') };
const samples: Record<Variant, (ClosedLoopResult & { cpuMicrosPerRequest: number })[]> = { plain: [], metered: [] };
for (const variant of ['plain', 'metered'] as const) await measure(apps[variant], WARM_SECONDS);
for (let round = 0; round < ROUNDS; round++) {
  const order: Variant[] = round % 2 === 0 ? ['plain', 'metered'] : ['metered', 'plain'];
  for (const variant of order) {
    await measure(apps[variant], 1);
    const result = await measure(apps[variant], SECONDS);
    samples[variant].push(result);
    process.stdout.write(`round ${round + 1} ${variant}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.failures} failures\n`);
  }
}
const finals: Record<Variant, unknown> = { plain: null, metered: null };
for (const variant of ['plain', 'metered'] as const) {
  apps[variant].child.send({ type: 'stop' });
  finals[variant] = (await reply<{ final: unknown }>(apps[variant].child, 'stopped')).final;
}

const row = (variant: Variant) => {
  const s = samples[variant];
  return {
    rps: median(s.map((r) => r.requestsPerSecond)),
    p50: median(s.map((r) => r.p50)),
    p99: median(s.map((r) => r.p99)),
    cpu: median(s.map((r) => r.cpuMicrosPerRequest)),
    failures: s.reduce((sum, r) => sum + r.failures, 0),
    responses: s.reduce((sum, r) => sum + r.responses, 0),
  };
};
const plain = row('plain');
const metered = row('metered');
const ratio = metered.rps / plain.rps;
const perRound = samples.metered.map((r, i) => (r.requestsPerSecond / samples.plain[i]!.requestsPerSecond).toFixed(3)).join(', ');
const section = [
  `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: Express middleware (mcp-sunset/express)`,
  '',
  `- Machine: ${machineLine(describeMachine())}; shared and noisy: 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
  `- Code: ${describeCode(fileURLToPath(new URL('..', import.meta.url)))}.`,
  '- App: Express 5, the v2 SDK\'s `createMcpHandler` (dual era) through `toNodeHandler` at `/mcp`, no body parser; each variant in its own child process, run from source through tsx. Metered: `meter()` mounted at `/mcp` with a real SQLite file in a temp dir, default settings (1 s flush).',
  `- Requests: the modern 2026-07-28 \`tools/call\` of the proxy bench (bench/mcp-request.ts), autocannon 8.0.0, ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${SECONDS} s alternating the order, 1 s warm-up before each; cells are medians over rounds.`,
  `- Whole run: ${Math.round((Date.now() - startedAt) / 1000)} s. Final flush of the metered app: ${JSON.stringify(finals.metered)}.`,
  '',
  '| setup | req/s | p50 ms | p99 ms | app CPU µs/req | responses | failures |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  `| plain | ${plain.rps.toFixed(0)} | ${plain.p50.toFixed(2)} | ${plain.p99.toFixed(2)} | ${plain.cpu.toFixed(1)} | ${plain.responses} | ${plain.failures} |`,
  `| metered | ${metered.rps.toFixed(0)} | ${metered.p50.toFixed(2)} | ${metered.p99.toFixed(2)} | ${metered.cpu.toFixed(1)} | ${metered.responses} | ${metered.failures} |`,
  '',
  `Metered / plain throughput: ${ratio.toFixed(3)}× (target ≥ 0.97×); per round: ${perRound}.`,
  '',
].join('\n');
process.stdout.write(`\n${section}`);
if (process.env.BENCH_RECORD !== '0') appendResults(section);
process.exit(0);
