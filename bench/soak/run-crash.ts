import { Agent, request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { closeServer } from '../support/close-server.js';
import { listenLoopback } from '../support/listen-loopback.js';
import { MCP_REQUEST_HEADERS, mcpRequestBody } from '../load/mcp-request.js';
import { spawnSoakSidecar } from './spawn-soak-sidecar.js';
import { createUpstreamServer } from '../load/upstream-server.js';

export interface CrashRun {
  killedAfterMs: number;
  completed: number;
  stored: number;
  lost: number;
  lostSeconds: number;
}

function post(target: URL, agent: Agent, id: number): Promise<boolean> {
  return new Promise((resolve) => {
    const body = mcpRequestBody(id);
    const req = request({ host: target.hostname, port: target.port, method: 'POST', path: '/mcp', agent, headers: { ...MCP_REQUEST_HEADERS, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

/**
 * Steady traffic at `rate` through a sidecar child flushing every second, SIGKILL at `killAfterMs`,
 * restart on the same database, and the requests the clients completed against the requests stored.
 */
export async function runCrash(options: { rate: number; killAfterMs: number; dir: string; run: number }): Promise<CrashRun> {
  const upstream = createUpstreamServer();
  const upstreamUrl = await listenLoopback(upstream);
  const db = join(options.dir, `crash-${options.run}.db`);
  const childOptions = { upstream: upstreamUrl.href, db, flushIntervalMs: 1000, maxBodyBytes: 1024 * 1024 };
  const sidecar = await spawnSoakSidecar(childOptions);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let completed = 0;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let sentCount = 0;
  const killAt = started + options.killAfterMs;
  // Paced by the schedule, not by answers, so the rate holds whatever the latency.
  while (performance.now() < killAt) {
    const due = started + (sentCount * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (performance.now() >= killAt) break;
    const sending = post(sidecar.url, agent, sentCount).then((ok) => {
      if (ok) completed += 1;
      inFlight.delete(sending);
    });
    inFlight.add(sending);
    sentCount += 1;
  }
  // Answers completed before the kill count; those cut by it fail and do not.
  await sidecar.kill();
  await Promise.all(inFlight);
  agent.destroy();
  const killedAfterMs = performance.now() - started;

  const restarted = await spawnSoakSidecar(childOptions);
  await restarted.stop();
  await closeServer(upstream);
  const sqlite = new Database(db, { readonly: true });
  const stored = (sqlite.prepare("select coalesce(sum(count), 0) as n from traffic_minute where kind = 'request'").get() as { n: number }).n;
  sqlite.close();
  const lost = completed - stored;
  return { killedAfterMs, completed, stored, lost, lostSeconds: lost / options.rate };
}
