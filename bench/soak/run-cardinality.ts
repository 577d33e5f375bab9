import { statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { closeServer } from '../support/close-server.js';
import { listenLoopback } from '../support/listen-loopback.js';
import type { ProcessMemory } from './soak-messages.js';
import { spawnSoakSidecar } from './spawn-soak-sidecar.js';
import { createUpstreamServer } from '../load/upstream-server.js';

export interface CardinalityResult {
  identities: number;
  concurrency: number;
  failures: number;
  before: ProcessMemory;
  after: ProcessMemory;
  afterGc: ProcessMemory;
  health: { events: number; heldBytes: number; heldBytesBudget: number; bytesEvictions: number; overflowedEvents: number; overflowedCallerEvents: number; openSessions: number; meteringErrors: number };
  integrationRows: number;
  dbBytes: number;
  seconds: number;
}

/** Request `i`: its own bearer token and method; even ones modern with their own version, odd ones legacy with their own session id. */
function distinctRequest(i: number): { headers: Record<string, string>; body: string } {
  const method = `tools/soak-${i}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer soak-identity-${i}` };
  if (i % 2 === 0) {
    const version = `2026-07-${i}`;
    headers['mcp-protocol-version'] = version;
    headers['mcp-method'] = method;
    const meta = { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientInfo': { name: `client-${i}`, version: String(i) } };
    return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: i, method, params: { _meta: meta } }) };
  }
  headers['mcp-session-id'] = `soak-session-${i}`;
  headers['mcp-protocol-version'] = '2025-11-25';
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id: i, method, params: {} }) };
}

function send(target: URL, agent: Agent, i: number): Promise<boolean> {
  const { headers, body } = distinctRequest(i);
  return new Promise((resolve) => {
    const req = request({ host: target.hostname, port: target.port, method: 'POST', path: '/mcp', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

/** `identities` distinct callers, methods, versions and session ids through one sidecar child: what it holds in memory and on disk after. */
export async function runCardinality(options: { identities: number; concurrency: number; dir: string }): Promise<CardinalityResult> {
  const started = Date.now();
  const upstream = createUpstreamServer();
  const upstreamUrl = await listenLoopback(upstream);
  const db = join(options.dir, 'cardinality.db');
  const sidecar = await spawnSoakSidecar({ upstream: upstreamUrl.href, db, flushIntervalMs: 1000, maxBodyBytes: 1024 * 1024 });
  const before = await sidecar.memory(true);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < options.identities) if (!(await send(sidecar.url, agent, next++))) failures += 1;
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  const after = await sidecar.memory(false);
  const afterGc = await sidecar.memory(true);
  const report = (await (await fetch(new URL('/healthz', sidecar.apiUrl))).json()) as { metering: CardinalityResult['health'] };
  const m = report.metering;
  await sidecar.stop();
  await closeServer(upstream);
  const sqlite = new Database(db, { readonly: true });
  const integrationRows = (sqlite.prepare('select count(*) as n from integrations').get() as { n: number }).n;
  sqlite.close();
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return {
    identities: options.identities,
    concurrency: options.concurrency,
    failures,
    before,
    after,
    afterGc,
    health: { events: m.events, heldBytes: m.heldBytes, heldBytesBudget: m.heldBytesBudget, bytesEvictions: m.bytesEvictions, overflowedEvents: m.overflowedEvents, overflowedCallerEvents: m.overflowedCallerEvents, openSessions: m.openSessions, meteringErrors: m.meteringErrors },
    integrationRows,
    dbBytes: size(db) + size(`${db}-wal`),
    seconds: (Date.now() - started) / 1000,
  };
}
