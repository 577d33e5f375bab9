/**
 * Which client is cheaper for the upstream leg: two bare pass-through proxies that differ only in it
 * (node:http's Agent in bare-proxy.ts, undici's Pool in bare-undici-proxy.ts), in front of the same
 * upstream, loaded in turns (order rotating) for JSON and SSE answers. The figure is each proxy
 * process's CPU per request over the closed-loop phase, and their ratio within each round.
 * Appends a dated section to bench/RESULTS.md unless BENCH_RECORD=0.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { appendResults } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { ANSWER_PATHS, MCP_REQUEST_HEADERS, mcpRequestBody, type AnswerMode } from '../load/mcp-request.js';
import { median } from '../support/percentile.js';
import { runClosedLoop } from '../load/run-closed-loop.js';
import { spawnServer, type ServerChild } from '../servers/spawn-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SECONDS = Number(process.env.BENCH_CLOSED_SECONDS ?? 4);
const CONNECTIONS = 32;
const MODES: readonly AnswerMode[] = ['json', 'sse'];
const CLIENTS = ['bare', 'bare-undici'] as const;
type Client = (typeof CLIENTS)[number];

interface Sample {
  round: number;
  mode: AnswerMode;
  client: Client;
  requestsPerSecond: number;
  cpuMicros: number;
  failures: number;
}

const startedAt = Date.now();
const loadBefore = loadavg()[0]!;
const upstream = await spawnServer('upstream');
const proxies: Record<Client, ServerChild> = { bare: await spawnServer('bare', { upstream: upstream.url }), 'bare-undici': await spawnServer('bare-undici', { upstream: upstream.url }) };
const samples: Sample[] = [];
try {
  // Both must pass the same answer, or the comparison is not of the same work.
  for (const mode of MODES) {
    const answers = await Promise.all(
      CLIENTS.map(async (client) => {
        const response = await fetch(new URL(ANSWER_PATHS[mode], proxies[client].url), { method: 'POST', headers: MCP_REQUEST_HEADERS, body: mcpRequestBody(7) });
        return `${response.status} ${response.headers.get('content-type')}\n${await response.text()}`;
      }),
    );
    if (answers[0] !== answers[1]) throw new Error(`the two proxies disagree on the ${mode} answer:\n${answers.join('\n---\n')}`);
  }
  for (const mode of MODES) for (const client of CLIENTS) await runClosedLoop({ url: proxies[client].url, path: ANSWER_PATHS[mode], connections: CONNECTIONS, durationSeconds: 3 });
  for (let round = 1; round <= ROUNDS; round += 1) {
    const order = round % 2 === 1 ? CLIENTS : ([...CLIENTS].reverse() as Client[]);
    for (const mode of MODES) {
      for (const client of order) {
        const target = { url: proxies[client].url, path: ANSWER_PATHS[mode], connections: CONNECTIONS };
        await runClosedLoop({ ...target, durationSeconds: 1 });
        const before = (await proxies[client].stats()).cpuMicros;
        const closed = await runClosedLoop({ ...target, durationSeconds: SECONDS });
        const after = (await proxies[client].stats()).cpuMicros;
        const sample = { round, mode, client, requestsPerSecond: closed.requestsPerSecond, cpuMicros: (after - before) / Math.max(1, closed.responses), failures: closed.failures };
        samples.push(sample);
        process.stderr.write(`round ${round} ${mode} ${client}: ${Math.round(sample.requestsPerSecond)} req/s, ${sample.cpuMicros.toFixed(1)} µs CPU/req\n`);
      }
    }
  }
} finally {
  await Promise.all(CLIENTS.map((client) => proxies[client].stop()));
  await upstream.stop();
}

const of = (round: number, mode: AnswerMode, client: Client) => samples.find((s) => s.round === round && s.mode === mode && s.client === client)!;
const rounds = [...new Set(samples.map((s) => s.round))];
const rows = MODES.map((mode) => {
  const cell = (client: Client) => {
    const mine = samples.filter((s) => s.mode === mode && s.client === client);
    return { rps: median(mine.map((s) => s.requestsPerSecond)), cpu: median(mine.map((s) => s.cpuMicros)), failures: mine.reduce((sum, s) => sum + s.failures, 0) };
  };
  const cpuRatios = rounds.map((r) => of(r, mode, 'bare').cpuMicros / of(r, mode, 'bare-undici').cpuMicros);
  const rpsRatios = rounds.map((r) => of(r, mode, 'bare-undici').requestsPerSecond / of(r, mode, 'bare').requestsPerSecond);
  return { mode, http: cell('bare'), undici: cell('bare-undici'), cpuRatio: median(cpuRatios), cpuRatios, rpsRatio: median(rpsRatios) };
});
const undiciVersion = (createRequire(import.meta.url)('undici/package.json') as { version: string }).version;
const section = [
  `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: the upstream leg, node:http against undici`,
  '',
  `- Machine: ${machineLine(describeMachine())}; shared and noisy: 1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`,
  `- Code: ${describeCode(process.cwd())}.`,
  `- Two bare pass-through proxies in child processes, identical but for the upstream client: node:http with a keep-alive Agent (bench/servers/bare-proxy.ts), undici ${undiciVersion} with a Pool and \`stream()\` (bench/proxy/bare-undici-proxy.ts); the bench's upstream; modern \`tools/call\` POSTs, JSON and SSE answers.`,
  `- autocannon, ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${SECONDS} s per proxy and answer after 1 s of warm-up, the order alternating; CPU is each proxy process's user + system time over the phase divided by the answers; ratios are taken within a round, then the median.`,
  `- Whole run: ${Math.round((Date.now() - startedAt) / 1000)} s.`,
  '',
  '| answer | node:http req/s | undici req/s | node:http CPU µs/req | undici CPU µs/req | node:http CPU ÷ undici CPU (per round) | undici ÷ node:http req/s | failures |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.mode.toUpperCase()} | ${r.http.rps.toFixed(0)} | ${r.undici.rps.toFixed(0)} | ${r.http.cpu.toFixed(1)} | ${r.undici.cpu.toFixed(1)} | ${r.cpuRatio.toFixed(3)} (${r.cpuRatios.map((x) => x.toFixed(2)).join(', ')}) | ${r.rpsRatio.toFixed(3)} | ${r.http.failures + r.undici.failures} |`),
  '',
].join('\n');
process.stdout.write(`\n${section}`);
if (process.env.BENCH_RECORD !== '0') appendResults(section);
process.exit(0);
