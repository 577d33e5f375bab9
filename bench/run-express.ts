/**
 * The middleware's cost: max throughput of an Express MCP app (the v2 SDK's dual-era handler, modern
 * tools/call) with and without `mcp-sunset/express` in front, rounds rotating the order. Target:
 * metered ≥ 0.97× plain. Two more variants say where a gap comes from: `noop`, a middleware that only
 * calls next() mounted the same way (Express's own cost of one more layer), and `enforcing`, the
 * middleware with a `warn` plan in its store (each body held until decided, the answer announced).
 * Appends a dated section to bench/RESULTS.md unless BENCH_RECORD=0. Run through bench/express.ts,
 * from tsc output.
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
const VARIANTS = ['plain', 'noop', 'metered', 'enforcing'] as const;
type Variant = (typeof VARIANTS)[number];

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
  const child = fork(fileURLToPath(new URL('./express-app-child.js', import.meta.url)), [variant], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
const apps = {} as Record<Variant, App>;
const samples = {} as Record<Variant, (ClosedLoopResult & { cpuMicrosPerRequest: number })[]>;
for (const variant of VARIANTS) {
  apps[variant] = await start(variant);
  samples[variant] = [];
}
for (const variant of VARIANTS) await measure(apps[variant], WARM_SECONDS);
for (let round = 0; round < ROUNDS; round++) {
  // Each variant takes each place in the order in turn, so none always runs right after another.
  const order: Variant[] = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
  for (const variant of order) {
    await measure(apps[variant], 1);
    const result = await measure(apps[variant], SECONDS);
    samples[variant].push(result);
    process.stdout.write(`round ${round + 1} ${variant}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.failures} failures\n`);
  }
}
const finals = {} as Record<Variant, unknown>;
const enforcingPlans = {} as Record<Variant, number | null>;
for (const variant of VARIANTS) {
  apps[variant].child.send({ type: 'stop' });
  const stopped = await reply<{ final: unknown; enforcingPlans: number | null }>(apps[variant].child, 'stopped');
  finals[variant] = stopped.final;
  enforcingPlans[variant] = stopped.enforcingPlans;
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
const rows = Object.fromEntries(VARIANTS.map((v) => [v, row(v)])) as Record<Variant, ReturnType<typeof row>>;
const ratioOf = (variant: Variant, base: Variant) => median(samples[variant].map((r, i) => r.requestsPerSecond / samples[base][i]!.requestsPerSecond));
const perRound = (variant: Variant) => samples[variant].map((r, i) => (r.requestsPerSecond / samples.plain[i]!.requestsPerSecond).toFixed(3)).join(', ');
const section = [
  `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: Express middleware (mcp-sunset/express)`,
  '',
  `- Machine: ${machineLine(describeMachine())}; shared and noisy: 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
  `- Code: ${describeCode(process.cwd())}.`,
  '- App: Express 5, the v2 SDK\'s `createMcpHandler` (dual era) through `toNodeHandler` at `/mcp`, no body parser; each variant in its own child process, run from tsc output in plain Node (as hosts run the package). Metered: `meter()` mounted at `/mcp` with a real SQLite file in a temp dir, default settings (1 s flush). noop: a middleware that only calls `next()`, mounted the same way. enforcing: metered, with a `warn` plan on the legacy era in its store (modern requests are decided and pass unannounced).',
  `- Requests: the modern 2026-07-28 \`tools/call\` of the proxy bench (bench/mcp-request.ts), autocannon 8.0.0, ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${SECONDS} s rotating the order, 1 s warm-up before each; cells are medians over rounds, ratios medians of the per-round ratios.`,
  `- Whole run: ${Math.round((Date.now() - startedAt) / 1000)} s. Final flush of the metered apps: ${JSON.stringify(finals.metered)}, ${JSON.stringify(finals.enforcing)}; plans enforcing in them: ${enforcingPlans.metered}, ${enforcingPlans.enforcing}.`,
  '',
  '| setup | req/s | ÷ plain | p50 ms | p99 ms | app CPU µs/req | responses | failures |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...VARIANTS.map((v) => `| ${v} | ${rows[v].rps.toFixed(0)} | ${ratioOf(v, 'plain').toFixed(3)} | ${rows[v].p50.toFixed(2)} | ${rows[v].p99.toFixed(2)} | ${rows[v].cpu.toFixed(1)} | ${rows[v].responses} | ${rows[v].failures} |`),
  '',
  `Metered / plain throughput: ${ratioOf('metered', 'plain').toFixed(3)}× (target ≥ 0.97×); per round: ${perRound('metered')}. Metered / noop: ${ratioOf('metered', 'noop').toFixed(3)}×; enforcing / plain: ${ratioOf('enforcing', 'plain').toFixed(3)}×.`,
  '',
].join('\n');
process.stdout.write(`\n${section}`);
if (process.env.BENCH_RECORD !== '0') appendResults(section);
process.exit(0);
