/**
 * The share/plan endpoints over a year of hourly traffic for 500 integrations on six versions:
 * latency percentiles of sequential requests against the real service. Target: p95 ≤ 50 ms.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../../server/cli/start-service.js';
import { loadConfig } from '../../server/config/load-config.js';
import { createLogger } from '../../server/lib/create-logger.js';
import { deleteExpiredTraffic } from '../../server/store/sqlite/delete-expired-traffic.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { percentile } from '../support/percentile.js';
import { seedYearOfTraffic } from './seed-year-of-traffic.js';

const WARMUP = 20;
const SAMPLES = Number(process.env.BENCH_SHARE_SAMPLES ?? 200);
const DAY_MS = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-share-bench-'));
const dbPath = join(dir, 'bench.db');
const now = Date.now();
const day = (offset: number) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10);

process.stderr.write('seeding one year of hourly traffic for 500 integrations (through the real flush path)…\n');
const store = openDatabase(dbPath);
// Smoke runs may shrink the data (BENCH_SHARE_CALLERS, BENCH_SHARE_DAYS); the recorded run uses 500 × 365.
const seeded = seedYearOfTraffic(store.db, now, Number(process.env.BENCH_SHARE_CALLERS ?? 500), Number(process.env.BENCH_SHARE_DAYS ?? 365));
deleteExpiredTraffic(store.db, now, { minuteDays: 14, hourDays: 400 });
const rowCounts = Object.fromEntries(
  ['traffic_minute', 'traffic_hour', 'traffic_day', 'share_day', 'legacy_caller_day'].map((table) => [table, (store.sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n]),
);
store.sqlite.pragma('wal_checkpoint(TRUNCATE)');
store.close();
const dbMiB = statSync(dbPath).size / 1024 ** 2;

const config = loadConfig({ flags: { listen: '127.0.0.1:0', dashboard: '127.0.0.1:0', db: dbPath, node: 'bench', logLevel: 'silent' } });
const service = await startService({ config, upstream: new URL('http://127.0.0.1:1'), logger: createLogger('silent') });
const api = (path: string, init?: RequestInit) => fetch(new URL(path, service.apiUrl), init);
const createPlan = async (body: object) => {
  const response = await api('/api/v1/plans', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return ((await response.json()) as { id: number }).id;
};
const legacyPlan = await createPlan({ name: 'Retire legacy', scope: { kind: 'era', value: 'legacy' }, announceDate: day(-200), retireDate: day(90) });
await createPlan({ name: 'Drop HTTP+SSE', scope: { kind: 'transport', value: 'http+sse' }, announceDate: day(-100), retireDate: day(30) });
await createPlan({ name: 'Retire 2025-03-26', scope: { kind: 'version', value: '2025-03-26' }, announceDate: day(-100), retireDate: day(60) });

const endpoints = [
  { name: 'share, plan, daily, 180 days (the dashboard\'s curve)', path: `/api/v1/share?plan=${legacyPlan}` },
  { name: 'share, plan, weekly, 365 days', path: `/api/v1/share?plan=${legacyPlan}&bucket=week&from=${new Date(now - 365 * DAY_MS).toISOString()}` },
  { name: 'share, scope era:legacy, daily, 365 days', path: `/api/v1/share?scope=era:legacy&from=${new Date(now - 365 * DAY_MS).toISOString()}` },
  { name: 'plans (3 plans, each with status and trend)', path: '/api/v1/plans' },
  { name: 'integrations (500, 30-day usage and deadlines)', path: '/api/v1/integrations' },
];

const rows: string[] = [];
for (const endpoint of endpoints) {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i += 1) {
    const started = performance.now();
    const response = await api(endpoint.path);
    const body = await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${endpoint.path} answered ${response.status}`);
    bytes = body.byteLength;
    if (i >= WARMUP) samples.push(elapsed);
  }
  const sorted = Float64Array.from(samples).sort();
  const cell = (p: number) => percentile(sorted, p).toFixed(1);
  rows.push(`| ${endpoint.name} | ${cell(50)} | ${cell(95)} | ${cell(99)} | ${sorted[sorted.length - 1]!.toFixed(1)} | ${(bytes / 1024).toFixed(0)} |`);
  process.stderr.write(`${endpoint.name}: p50 ${cell(50)} ms, p95 ${cell(95)} ms\n`);
}
await service.stop();
rmSync(dir, { recursive: true, force: true });

const section = [
  `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — share and plan endpoints over a year of traffic (bench/share/share.ts)`,
  '',
  `- Machine: ${machineLine(describeMachine())}.`,
  `- Code: ${describeCode(dirname(RESULTS_FILE))}.`,
  `- Data: one year of hourly traffic for 500 integrations over six versions (2026-07-28, DRAFT-2026-v1, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 on HTTP+SSE); legacy callers migrate at random days. ${seeded.cells.toLocaleString('en-US')} hourly cells (${seeded.requests.toLocaleString('en-US')} requests) written through the real flush path in ${seeded.seconds.toFixed(0)} s, then minute rows past the 14-day retention deleted.`,
  `- Rows: ${Object.entries(rowCounts).map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`).join(', ')}; database ${dbMiB.toFixed(0)} MiB.`,
  `- Requests: the real service (startService) on loopback, ${SAMPLES} sequential requests per endpoint after ${WARMUP} warm-up, latency from send to the last body byte.`,
  '',
  '| endpoint | p50 ms | p95 ms | p99 ms | max ms | body KiB |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  'Target: the share/plan endpoint answers with p95 ≤ 50 ms.',
  '',
].join('\n');
process.stdout.write(`${section}\n`);
if (process.env.BENCH_RECORD !== '0') appendResults(section);
