/**
 * Run by `npx tsx bench/policy/policy.ts` (compiled first, see run-compiled.ts): what the retirement
 * policy costs per request.
 * (a) `CompiledPolicy.decide` alone, ns per call: no plan, a warn plan in scope, a deny plan out of
 *     scope, three plans; and `decideExchange` on the bench request as the proxy calls it.
 * (b) The full sidecar four times over, side by side against one upstream, each in its own
 *     process: no plan, twice (the second is an A/A control); a deny plan whose scope the traffic
 *     is outside; a warn plan whose scope it is in (every answer gains three headers). Closed
 *     loop, setups alternated round by round; CPU µs per answer of each sidecar process, and each
 *     round's difference from the first plain sidecar.
 */
import { dirname } from 'node:path';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import type { ServerKind } from '../servers/child-messages.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { ANSWER_PATHS, MCP_REQUEST_HEADERS, mcpRequestBody } from '../load/mcp-request.js';
import { median } from '../support/percentile.js';
import { runClosedLoop } from '../load/run-closed-loop.js';
import { runPolicyMicroBenchmarks } from './run-policy-micro.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';

// The second plain sidecar is the control: two processes running the same code differ by this much.
const SETUPS: readonly { kind: ServerKind; label: string }[] = [
  { kind: 'sidecar', label: 'no plan' },
  { kind: 'sidecar', label: 'no plan, a second process (control)' },
  { kind: 'sidecar-deny-out', label: 'deny plan, traffic out of scope' },
  { kind: 'sidecar-warn-in', label: 'warn plan, traffic in scope (headers added)' },
];
const ROUNDS = Number(process.env.BENCH_POLICY_ROUNDS ?? 6);
const CONNECTIONS = 32;
const INITIAL_WARMUP_SECONDS = 3;
const WARMUP_SECONDS = 1;
const MEASURE_SECONDS = 3;
const PATH = ANSWER_PATHS.json;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function measure(child: ServerChild, seconds: number): Promise<{ requestsPerSecond: number; cpuMicros: number }> {
  const before = (await child.stats()).cpuMicros;
  const result = await runClosedLoop({ url: child.url, path: PATH, connections: CONNECTIONS, durationSeconds: seconds });
  const after = (await child.stats()).cpuMicros;
  if (result.failures > 0) throw new Error(`${child.kind}: ${result.failures} failed requests`);
  return { requestsPerSecond: result.requestsPerSecond, cpuMicros: (after - before) / result.responses };
}

/** The plans must be in force and must change nothing but the announcing headers, or the comparison measures something else. */
async function checkSetups(children: readonly ServerChild[]): Promise<void> {
  const answers = await Promise.all(
    children.map(async (child) => {
      const response = await fetch(new URL(PATH, child.url), { method: 'POST', headers: MCP_REQUEST_HEADERS, body: mcpRequestBody(7) });
      return { kind: child.kind, status: response.status, body: await response.text(), deprecation: response.headers.get('deprecation'), health: (await child.stats()).health };
    }),
  );
  const plain = answers[0]!;
  for (const answer of answers) {
    if (answer.status !== plain.status || answer.body !== plain.body) throw new Error(`${answer.kind} answered differently from the plain sidecar`);
    const plans = (answer.health.policy as { enforcingPlans: number }).enforcingPlans;
    if (plans !== (answer.kind === 'sidecar' ? 0 : 1)) throw new Error(`${answer.kind} enforces ${plans} plans`);
    if ((answer.deprecation !== null) !== (answer.kind === 'sidecar-warn-in')) throw new Error(`${answer.kind}: Deprecation header ${answer.deprecation}`);
  }
}

const signed = (value: number, digits: number) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

async function main(): Promise<void> {
  const startedAt = new Date();
  log('decide() micro-benchmarks…');
  const micro = runPolicyMicroBenchmarks();
  for (const m of micro) log(`  ${m.name}: ${m.nsPerOp.toFixed(1)} ns`);

  const upstream = await spawnServer('upstream');
  const children: ServerChild[] = [];
  const cpu: number[][] = SETUPS.map(() => []);
  const throughput: number[][] = SETUPS.map(() => []);
  try {
    for (const setup of SETUPS) children.push(await spawnServer(setup.kind, { upstream: upstream.url }));
    await checkSetups(children);
    for (const child of children) await measure(child, INITIAL_WARMUP_SECONDS);
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Rotating the order spreads slow drift (neighbours on the machine) over every setup.
      const order = children.map((_, i) => (i + round - 1) % children.length);
      for (const index of order) {
        const child = children[index]!;
        await measure(child, WARMUP_SECONDS);
        const { requestsPerSecond, cpuMicros } = await measure(child, MEASURE_SECONDS);
        cpu[index]!.push(cpuMicros);
        throughput[index]!.push(requestsPerSecond);
        log(`round ${round} ${SETUPS[index]!.label.padEnd(44)} ${Math.round(requestsPerSecond).toString().padStart(6)} req/s ${cpuMicros.toFixed(2)} µs CPU/req`);
      }
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await upstream.stop();
  }

  const plain = cpu[0]!;
  const rows = SETUPS.map(({ label }, index) => {
    const values = cpu[index]!;
    const perRound = values.map((v, i) => v - plain[i]!);
    const diff = index === 0 ? '–' : `${signed(median(perRound), 2)} (rounds: ${perRound.map((d) => signed(d, 2)).join(', ')})`;
    return `| ${label} | ${Math.round(median(throughput[index]!))} | ${median(values).toFixed(2)} | ${values.map((v) => v.toFixed(2)).join(', ')} | ${diff} |`;
  });
  // Round-to-round spread of the plain sidecar against itself.
  const noise = Math.max(...plain) - Math.min(...plain);
  const section = [
    `## ${startedAt.toISOString().replace(/\.\d+Z$/, 'Z')} — retirement policy cost per request (bench/policy/policy.ts)`,
    '',
    `- Machine: ${machineLine(describeMachine())}.`,
    `- Code: ${describeCode(dirname(RESULTS_FILE))}.`,
    '',
    '### decide() alone',
    '',
    '| case | ns per call |',
    '| --- | --- |',
    ...micro.map((m) => `| ${m.name} | ${m.nsPerOp.toFixed(1)} |`),
    '',
    '### The sidecar with and without a plan',
    '',
    `- The full sidecar (real SQLite file, 1 s flush) four times over against one upstream (two without a plan), each in its own process; the \`npm run bench\` request (modern 2026-07-28 \`tools/call\`, JSON answer); closed loop, ${CONNECTIONS} connections, ` +
      `${INITIAL_WARMUP_SECONDS} s warm-up each, then ${ROUNDS} rounds (order rotated) of ${WARMUP_SECONDS} s warm-up + ${MEASURE_SECONDS} s measured. Checked first: same status and body from all four, the plan in force, headers only from the warn plan.`,
    '- CPU µs/req: user+system time of the sidecar process (all its threads; it starts no child process) over the measured phase, divided by the answers produced. Difference: each round\'s value minus the (first) plain sidecar\'s in the same round; the median of those. The second plain sidecar is an A/A control: what two processes running the same code differ by.',
    '',
    '| sidecar | req/s | CPU µs/req (median) | per round | vs no plan, µs/req |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `- The plain sidecar's own round-to-round spread: ${noise.toFixed(2)} µs/req.`,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  if (process.env.BENCH_RECORD !== '0') appendResults(section);
}

await main();
