/**
 * `npx tsx bench/fleet/postgres-tally.ts`: a closed-loop companion of bench/fleet/fleet-ingest.ts (the recorded,
 * open-loop figure): how many tally cells per second the Postgres store takes at most when
 * sidecars flush back to back, and (BENCH_PG_SHARED=0) what callers shared by the fleet cost. Each simulated sidecar is a store of its own (its own pool) writing
 * one stream of numbered flushes in a closed loop; every flush carries CELLS cells (its node's
 * traffic over INTEGRATIONS callers shared by the whole fleet) and a heartbeat. Postgres is
 * `MCP_SUNSET_BENCH_POSTGRES_URL` when set, else an embedded server started here (fsync on).
 */
import { openPostgresStore } from '../../server/store/postgres/open-postgres-store.js';
import type { Store } from '../../server/store/store.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { startPostgresServer } from '../../test/support/postgres-server.js';
import pg from 'pg';

const SIDECARS = Number(process.env.BENCH_PG_SIDECARS ?? 32);
const CELLS = Number(process.env.BENCH_PG_CELLS ?? 50);
const INTEGRATIONS = 10;
// Callers shared by the whole fleet (the default), or each node's own (to see what sharing costs).
const SHARED = process.env.BENCH_PG_SHARED !== '0';
const callerKey = (node: string, k: number) => (SHARED ? `tok_${k}` : `${node}_tok_${k}`);
const SECONDS = Number(process.env.BENCH_PG_SECONDS ?? 15);
const METHODS = ['tools/call', 'tools/list', 'resources/read', 'prompts/get', 'initialize'];

function flushCells(node: string, minute: number): TallyCell[] {
  return Array.from({ length: CELLS }, (_, i) => ({
    minute,
    node,
    era: i % 3 === 0 ? 'modern' : 'legacy',
    transport: 'streamable-http',
    reason: i % 3 === 0 ? 'modern-meta' : 'session-header',
    version: i % 3 === 0 ? '2026-07-28' : '2025-06-18',
    method: METHODS[i % METHODS.length]!,
    kind: 'request',
    outcome: 'served',
    integration: callerKey(node, Math.floor(i / METHODS.length) % INTEGRATIONS),
    count: 1 + (i % 7),
    mismatchCount: 0,
  }));
}

const server = process.env.MCP_SUNSET_BENCH_POSTGRES_URL ? { url: process.env.MCP_SUNSET_BENCH_POSTGRES_URL, stop: async () => {} } : await startPostgresServer();
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
const name = `mcp_sunset_bench_${Date.now()}`;
await admin.query(`create database ${name}`);
const url = new URL(server.url);
url.pathname = `/${name}`;

const stores: Store[] = [];
for (let i = 0; i < SIDECARS; i += 1) stores.push(await openPostgresStore(url.toString()));
const start = Date.now();
const deadline = start + SECONDS * 1000;
const latencies: number[] = [];
let cells = 0;
let deadlocks = 0;
await Promise.all(
  stores.map(async (store, i) => {
    const node = `node-${i}`;
    for (let seq = 1; Date.now() < deadline; seq += 1) {
      const minute = Math.floor(Date.now() / 60_000) * 60_000;
      const batch = { cells: flushCells(node, minute), integrations: Array.from({ length: INTEGRATIONS }, (_, k) => ({ key: callerKey(node, k), source: 'bearer-fingerprint', firstSeen: minute, lastSeen: Date.now(), lastLegacySeen: minute, clientInfo: undefined })) };
      const began = performance.now();
      try {
        const result = await store.writeTally([{ stream: `bench-${i}`, node, seq, batch }], Date.now(), { node, kind: 'serve', at: Date.now(), policyVersion: 0, startedAt: start });
        latencies.push(performance.now() - began);
        cells += result.written * CELLS;
      } catch (error) {
        if (String(error).includes('deadlock')) deadlocks += 1;
        else throw error;
      }
    }
  }),
);
const elapsed = (Date.now() - start) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
console.log(
  JSON.stringify({ sidecars: SIDECARS, cellsPerFlush: CELLS, seconds: elapsed, flushes: latencies.length, flushesPerSecond: Math.round(latencies.length / elapsed), cellsPerSecond: Math.round(cells / elapsed), p50Ms: at(0.5), p99Ms: at(0.99), deadlocks }),
);
for (const store of stores) await store.close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
await server.stop();
