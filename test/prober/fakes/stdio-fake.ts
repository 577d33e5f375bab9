/**
 * A scripted stdio MCP server: `node --import tsx stdio-fake.ts '<script JSON>'`. The script says
 * how to answer each method; with a `stateFile` the n-th spawn follows `spawns[n-1]` (the last
 * one repeats), so a test can make the first process slow and the next one quick. With a
 * `wireFile` every line read is appended to it, so a test can assert what reached the server.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** `silent`: never answer; `exit`: exit(1) on it; or an answer (the request id is filled in unless `raw` has one). */
export type StdioReply = 'silent' | 'exit' | { result: unknown } | { error: { code: number; message: string; data?: unknown } } | { raw: Record<string, unknown> };

export interface StdioScript {
  /** Replies by method; a method not listed is answered -32601. A list answers the n-th call with its n-th entry (the last repeats). */
  replies: Record<string, StdioReply | StdioReply[]>;
  /** Lines written before each answer: noise the prober must ignore. */
  noise?: boolean;
  /** Wait this long before reading anything (a slow start). */
  startDelayMs?: number;
}

export interface StdioFakeConfig {
  stateFile?: string;
  wireFile?: string;
  spawns: StdioScript[];
}

function spawnNumber(stateFile: string | undefined): number {
  if (stateFile === undefined) return 1;
  appendFileSync(stateFile, 'x');
  return existsSync(stateFile) ? readFileSync(stateFile, 'utf8').length : 1;
}

const NOISE = [
  'starting up, not JSON',
  JSON.stringify({ jsonrpc: '2.0', id: 'someone-else', result: { supportedVersions: ['2026-07-28'], capabilities: {} } }),
  JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'null id error' } }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } }),
  JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
];

const config = JSON.parse(process.argv[2] ?? '{"spawns":[{"replies":{}}]}') as StdioFakeConfig;
const n = spawnNumber(config.stateFile);
const script = config.spawns[Math.min(n, config.spawns.length) - 1]!;
const write = (value: unknown) => process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);

const calls = new Map<string, number>();

function replyTo(method: string): StdioReply {
  const scripted = script.replies[method] ?? { error: { code: -32601, message: 'Method not found' } };
  if (!Array.isArray(scripted)) return scripted;
  const n = calls.get(method) ?? 0;
  calls.set(method, n + 1);
  return scripted[Math.min(n, scripted.length - 1)]!;
}

async function main(): Promise<void> {
  if (script.startDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, script.startDelayMs));
  for await (const line of createInterface({ input: process.stdin })) {
    if (config.wireFile !== undefined) appendFileSync(config.wireFile, `${line}\n`);
    let message: { id?: unknown; method?: string };
    try {
      message = JSON.parse(line);
    } catch {
      continue;
    }
    if (message.method === undefined || !('id' in message)) continue;
    const reply = replyTo(message.method);
    if (reply === 'silent') continue;
    if (reply === 'exit') process.exit(1);
    if (script.noise) NOISE.forEach(write);
    if ('raw' in reply) write({ id: message.id, ...reply.raw });
    else write({ jsonrpc: '2.0', id: message.id, ...reply });
  }
}

await main();
