/**
 * The middleware's cost: max throughput of an Express MCP app (the v2 SDK's dual-era handler, modern
 * tools/call) with and without `mcp-sunset/express` in front. Each variant is loaded at the same time as
 * the plain app, so both meet the same neighbours in the same seconds: run one after the other, the
 * rounds of one shared machine moved by more than the gap being measured. Target: metered ≥ 0.97× plain. Two more variants say where a gap comes from: `noop`, a middleware that only
 * calls next() mounted the same way (Express's own cost of one more layer), and `enforcing`, the
 * middleware with a `warn` plan in its store (each body held until decided, the answer announced).
 * Appends a dated section to bench/RESULTS.md unless BENCH_RECORD=0. Run through bench/express/express.ts,
 * from tsc output.
 */
import type { ExpressAppReply } from './express-app-child.js';
import { nextReply } from '../support/next-reply.js';
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { appendResults } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { median } from '../support/percentile.js';
import { runClosedLoop, type ClosedLoopResult } from '../load/run-closed-loop.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_CLOSED_SECONDS ?? 5);
const WARM_SECONDS = 2;
// Per app: two apps are loaded at once, each with this many connections, enough to keep either busy.
const CONNECTIONS = 16;
const VARIANTS = ['plain', 'noop', 'metered', 'enforcing'] as const;
type Variant = (typeof VARIANTS)[number];

interface App {
  child: ChildProcess;
  url: URL;
}

const REPLY_TIMEOUT_MS = 60_000;
const reply = <T extends ExpressAppReply['type']>(child: ChildProcess, type: T) => nextReply<ExpressAppReply, T>(child, type, REPLY_TIMEOUT_MS);

async function start(variant: Variant): Promise<App> {
  const child = fork(fileURLToPath(new URL('./express-app-child.js', import.meta.url)), [variant], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url } = await reply(child, 'ready');
  return { child, url: new URL(url) };
}

async function measure(app: App, seconds: number): Promise<ClosedLoopResult & { cpuMicrosPerRequest: number }> {
  app.child.send({ type: 'cpu' });
  const before = (await reply(app.child, 'cpu')).usage;
  const result = await runClosedLoop({ url: app.url, path: '/mcp', connections: CONNECTIONS, durationSeconds: seconds });
  app.child.send({ type: 'cpu' });
  const after = (await reply(app.child, 'cpu')).usage;
  const cpu = after.user - before.user + (after.system - before.system);
  return { ...result, cpuMicrosPerRequest: cpu / Math.max(1, result.responses) };
}

type Sample = ClosedLoopResult & { cpuMicrosPerRequest: number };
/** One variant measured at the same time as the plain app, on the same seconds of the same machine. */
interface Pair {
  variant: Variant;
  plain: Sample;
  other: Sample;
}

const startedAt = Date.now();
const loadBefore = loadavg()[0]!;
const apps = {} as Record<Variant, App>;
for (const variant of VARIANTS) apps[variant] = await start(variant);
const measurePair = async (variant: Variant, seconds: number): Promise<Pair> => {
  const [plain, other] = await Promise.all([measure(apps.plain, seconds), measure(apps[variant], seconds)]);
  return { variant, plain, other };
};
const OTHERS = VARIANTS.filter((v) => v !== 'plain');
for (const variant of OTHERS) await measurePair(variant, WARM_SECONDS);
const pairs: Pair[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Each variant takes each place in the order in turn, so none always runs right after another.
  const order: Variant[] = OTHERS.map((_, i) => OTHERS[(i + round) % OTHERS.length]!);
  for (const variant of order) {
    await measurePair(variant, 1);
    const pair = await measurePair(variant, SECONDS);
    pairs.push(pair);
    process.stdout.write(
      `round ${round + 1} plain ${pair.plain.requestsPerSecond.toFixed(0)} req/s beside ${variant} ${pair.other.requestsPerSecond.toFixed(0)} req/s ` +
        `(${(pair.other.requestsPerSecond / pair.plain.requestsPerSecond).toFixed(3)}×), ${pair.plain.failures + pair.other.failures} failures\n`,
    );
  }
}
const finals = {} as Record<Variant, unknown>;
const enforcingPlans = {} as Record<Variant, number | null>;
for (const variant of VARIANTS) {
  apps[variant].child.send({ type: 'stop' });
  const stopped = await reply(apps[variant].child, 'stopped');
  finals[variant] = stopped.final;
  enforcingPlans[variant] = stopped.enforcingPlans;
}

const pairsOf = (variant: Variant) => pairs.filter((p) => p.variant === variant);
const row = (variant: Variant) => {
  const s = variant === 'plain' ? pairs.map((p) => p.plain) : pairsOf(variant).map((p) => p.other);
  const mine = pairsOf(variant);
  return {
    rps: median(s.map((r) => r.requestsPerSecond)),
    ratio: variant === 'plain' ? 1 : median(mine.map((p) => p.other.requestsPerSecond / p.plain.requestsPerSecond)),
    cpuRatio: variant === 'plain' ? 1 : median(mine.map((p) => p.plain.cpuMicrosPerRequest / p.other.cpuMicrosPerRequest)),
    p50: median(s.map((r) => r.p50)),
    p99: median(s.map((r) => r.p99)),
    cpu: median(s.map((r) => r.cpuMicrosPerRequest)),
    failures: s.reduce((sum, r) => sum + r.failures, 0),
    responses: s.reduce((sum, r) => sum + r.responses, 0),
  };
};
const rows = Object.fromEntries(VARIANTS.map((v) => [v, row(v)])) as Record<Variant, ReturnType<typeof row>>;
const perRound = (variant: Variant) => pairsOf(variant).map((p) => (p.other.requestsPerSecond / p.plain.requestsPerSecond).toFixed(3)).join(', ');
const section = [
  `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: Express middleware (mcp-sunset/express)`,
  '',
  `- Machine: ${machineLine(describeMachine())}; shared and noisy: 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
  `- Code: ${describeCode(process.cwd())}.`,
  '- App: Express 5, the v2 SDK\'s `createMcpHandler` (dual era) through `toNodeHandler` at `/mcp`, no body parser; each variant in its own child process, run from tsc output in plain Node (as hosts run the package). Metered: `meter()` mounted at `/mcp` with a real SQLite file in a temp dir, default settings (1 s flush). noop: a middleware that only calls `next()`, mounted the same way. enforcing: metered, with a `warn` plan on the legacy era in its store (modern requests are decided and pass unannounced).',
  `- Requests: the modern 2026-07-28 \`tools/call\` of the proxy bench (bench/load/mcp-request.ts), autocannon 8.0.0. Side by side: each variant is loaded at the same time as the plain app, ${CONNECTIONS} keep-alive connections each, for ${SECONDS} s after 1 s of warm-up, so both meet the same machine in the same seconds; ${ROUNDS} rounds, the variants in rotating order. Cells are medians over rounds (plain over all its pairings); ratios are medians of the per-pair ratios.`,
  `- Whole run: ${Math.round((Date.now() - startedAt) / 1000)} s. Final flush of the metered apps: ${JSON.stringify(finals.metered)}, ${JSON.stringify(finals.enforcing)}; plans enforcing in them: ${enforcingPlans.metered}, ${enforcingPlans.enforcing}.`,
  '',
  '| setup | req/s | req/s ÷ plain beside it | p50 ms | p99 ms | app CPU µs/req | plain CPU ÷ its CPU | responses | failures |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...VARIANTS.map((v) => `| ${v} | ${rows[v].rps.toFixed(0)} | ${rows[v].ratio.toFixed(3)} | ${rows[v].p50.toFixed(2)} | ${rows[v].p99.toFixed(2)} | ${rows[v].cpu.toFixed(1)} | ${rows[v].cpuRatio.toFixed(3)} | ${rows[v].responses} | ${rows[v].failures} |`),
  '',
  `Metered / plain throughput: ${rows.metered.ratio.toFixed(3)}× (target ≥ 0.97×); per round: ${perRound('metered')}. noop / plain: ${rows.noop.ratio.toFixed(3)}× (rounds ${perRound('noop')}); enforcing / plain: ${rows.enforcing.ratio.toFixed(3)}× (rounds ${perRound('enforcing')}).`,
  '',
].join('\n');
process.stdout.write(`\n${section}`);
if (process.env.BENCH_RECORD !== '0') appendResults(section);
process.exit(0);
