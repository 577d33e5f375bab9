/**
 * The Express middleware's own CPU per request, without sockets, the SDK or the event loop: real
 * IncomingMessage/ServerResponse objects go through `meter()` (real SQLite file, 1 s flush), get
 * the bench's modern tools/call body pushed the way the HTTP parser pushes it, and are answered
 * with the bench app's JSON answer; the same without the middleware is the baseline.
 *   npx tsx bench/express/express-micro.ts [path of the express entry, default server/express/index.ts]
 */
import { mkdtempSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { MCP_REQUEST_HEADERS, mcpRequestBody } from '../load/mcp-request.js';

const entry = process.argv[2] === undefined ? new URL('../../server/express/index.ts', import.meta.url).href : pathToFileURL(resolve(process.argv[2])).href;
const { meter } = (await import(entry)) as typeof import('../../server/express/index.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 20_000);

const answerOf = (id: number) =>
  JSON.stringify({ result: { content: [{ type: 'text', text: 'hi era=modern' }], resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench-express-app', version: '1.0.0' } } }, jsonrpc: '2.0', id });

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** One request through `middleware` (or none): the head arrives, the body is pushed, the handler answers. */
function exchange(middleware: Middleware | undefined, id: number): void {
  const body = Buffer.from(mcpRequestBody(id));
  const req = new IncomingMessage(new Socket());
  req.method = 'POST';
  req.url = '/mcp';
  req.headers = { ...MCP_REQUEST_HEADERS, host: '127.0.0.1', 'content-length': String(body.length) };
  const res = new ServerResponse(req);
  middleware?.(req, res, () => {});
  req.push(body);
  req.complete = true;
  req.push(null);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(answerOf(id));
  res.emit('close');
}

function perRequestNs(middleware: Middleware | undefined): number {
  const started = performance.now();
  for (let i = 0; i < PER_ROUND; i++) exchange(middleware, i);
  return ((performance.now() - started) * 1e6) / PER_ROUND;
}

const metered = meter({ db: join(mkdtempSync(join(tmpdir(), 'mcp-sunset-micro-')), 'sunset.db'), node: 'bench', logger: pino({ level: 'silent' }) });
const plain: number[] = [];
const withMeter: number[] = [];
perRequestNs(undefined);
perRequestNs(metered);
for (let round = 0; round < ROUNDS; round++) {
  plain.push(perRequestNs(undefined));
  withMeter.push(perRequestNs(metered));
}
const final = await metered.close();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const extra = withMeter.map((ns, i) => ns - plain[i]!);
process.stdout.write(`${entry}\nwithout: ${(median(plain) / 1000).toFixed(2)} µs/req, with meter(): ${(median(withMeter) / 1000).toFixed(2)} µs/req; the middleware's cost: ${(median(extra) / 1000).toFixed(2)} µs/req (rounds: ${extra.map((ns) => (ns / 1000).toFixed(1)).join(', ')}); final flush ${JSON.stringify(final)}\n`);
process.exit(0);
