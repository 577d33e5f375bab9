/**
 * The share and plan queries over a year of fleet history, on Postgres and on SQLite side by side:
 * the same cells (8 nodes, 300 callers, each caller on 3 nodes a day, one year of daily counts) are
 * written to both through Store.writeTally, then the views the API answers from are timed in turns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';
import { openStore } from '../../server/store/open-store.js';
import type { Store } from '../../server/store/store.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';
import { loadIntegrationViews } from '../../server/views/load-integration-views.js';
import { loadPlanView } from '../../server/views/load-plan-views.js';
import { loadShareView } from '../../server/views/load-share-view.js';
import { startLocalPostgres } from '../../tools/start-local-postgres.js';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { percentile } from '../support/percentile.js';

const DAY_MS = 86_400_000;
const NODES = 8;
const CALLERS = 300;
const DAYS = Number(process.env.BENCH_FLEET_DAYS ?? 365);
const SAMPLES = Number(process.env.BENCH_FLEET_SAMPLES ?? 60);
const THRESHOLDS = { windowWeeks: 12, minPoints: 4, alpha: 0.05, flatSlopePerWeek: 0.001, atRiskDays: 14 };
const PATHS = [
  { era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28' },
  { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' },
  { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-03-26' },
  { era: 'legacy', transport: 'http+sse', reason: 'sse-message', version: '2024-11-05' },
] as const;

const now = Date.now();
const firstDay = Math.floor(now / DAY_MS) * DAY_MS - DAYS * DAY_MS;
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

function yearOfCells(): TallyCell[][] {
  const random = createSeededRandom(20261201);
  const callers = Array.from({ length: CALLERS }, (_, i) => {
    const legacy = random() < 0.7;
    return { key: `tok_${i.toString(16).padStart(8, '0')}`, path: legacy ? PATHS[1 + Math.floor(random() * 3)]! : PATHS[0], migratesOnDay: legacy ? Math.floor(random() * DAYS * 1.3) : -1, perDay: 50 + Math.floor(random() * 2000) };
  });
  return Array.from({ length: DAYS }, (_, d) =>
    callers.flatMap((caller) => {
      const path = caller.path.era === 'legacy' && d >= caller.migratesOnDay ? PATHS[0] : caller.path;
      const nodes = new Set(Array.from({ length: 3 }, () => Math.floor(random() * NODES)));
      return [...nodes].map((n) => ({ minute: firstDay + d * DAY_MS + 12 * 3_600_000, node: `node-${n}`, ...path, method: 'tools/call', kind: 'request' as const, outcome: 'served' as const, integration: caller.key, count: Math.round(caller.perDay / 3), mismatchCount: 0 }));
    }),
  );
}

async function seed(store: Store, days: TallyCell[][]): Promise<number> {
  const started = performance.now();
  for (const [d, cells] of days.entries()) await store.writeTally([{ stream: 'seed', node: 'seed', seq: d + 1, batch: { cells, integrations: d === 0 ? [...new Set(cells.map((c) => c.integration))].map((key) => ({ key, source: 'bearer-fingerprint', firstSeen: firstDay, lastSeen: now, lastLegacySeen: undefined, clientInfo: undefined })) : [] } }], now);
  return (performance.now() - started) / 1000;
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-fleet-queries-'));
// A folder of its own: as root, Postgres runs as another user, who must reach it (a private temp folder would not do).
const pgDir = mkdtempSync(join(tmpdir(), 'mcp-sunset-fleet-queries-pg-'));
const postgres = await startLocalPostgres({ dir: pgDir });
const stores: { name: string; store: Store }[] = [
  { name: 'SQLite', store: await openStore(join(dir, 'fleet.db')) },
  { name: 'Postgres', store: await openStore(postgres.url) },
];
const days = yearOfCells();
const cellCount = days.reduce((sum, d) => sum + d.length, 0);
for (const { name, store } of stores) {
  const seconds = await seed(store, days);
  process.stderr.write(`${name}: ${cellCount} cells seeded in ${seconds.toFixed(0)} s\n`);
  await store.insertPlan({ name: 'Retire legacy', scopeKind: 'era', scopeValue: 'legacy', announceDate: isoDay(now - 200 * DAY_MS), retireDate: isoDay(now + 90 * DAY_MS), targetShare: 0.005, basis: 'work-requests', policyUrl: null, brownouts: [], action: 'observe', blockNewCallersFrom: null, quietDays: 30, gate: { backstopDate: isoDay(now + 120 * DAY_MS), maxShare: null }, exemptions: [], declaredKey: null }, now);
}

const queries: { name: string; run: (store: Store) => Promise<unknown> }[] = [
  { name: 'share curve, era:legacy, daily, 365 days, fleet', run: (s) => loadShareView(s, { scope: { kind: 'era', value: 'legacy' }, basis: 'work-requests', bucket: 'day', from: now - 365 * DAY_MS, to: now, target: 0.005, now, thresholds: THRESHOLDS }) },
  { name: 'share curve, one node', run: (s) => loadShareView(s, { scope: { kind: 'era', value: 'legacy' }, basis: 'work-requests', bucket: 'day', from: now - 365 * DAY_MS, to: now, target: 0.005, now, thresholds: THRESHOLDS, node: 'node-3' }) },
  { name: 'plan view (curve, trend, status, gate, timeline)', run: async (s) => loadPlanView(s, (await s.listPlans())[0]!, now, THRESHOLDS) },
  { name: 'integrations (300, 30-day usage, deadlines)', run: async (s) => loadIntegrationViews(s, await s.listPlans(), now) },
];

const rows: string[] = [];
for (const query of queries) {
  const samples = new Map<string, number[]>(stores.map((s) => [s.name, []]));
  for (let i = 0; i < 5 + SAMPLES; i += 1) {
    for (const { name, store } of stores) {
      const started = performance.now();
      await query.run(store);
      if (i >= 5) samples.get(name)!.push(performance.now() - started);
    }
  }
  const p = (name: string, q: number) => percentile(Float64Array.from(samples.get(name)!).sort(), q);
  rows.push(`| ${query.name} | ${p('SQLite', 50).toFixed(1)} / ${p('SQLite', 95).toFixed(1)} | ${p('Postgres', 50).toFixed(1)} / ${p('Postgres', 95).toFixed(1)} | ${(p('Postgres', 50) / p('SQLite', 50)).toFixed(2)}× |`);
  process.stderr.write(`${rows.at(-1)}\n`);
}
for (const { store } of stores) await store.close();
await postgres.stop();
rmSync(dir, { recursive: true, force: true });
rmSync(pgDir, { recursive: true, force: true });

const lines = [
  `## Fleet queries: Postgres against SQLite — ${new Date().toISOString().slice(0, 10)}`,
  '',
  machineLine(describeMachine()),
  describeCode(process.cwd()),
  '',
  `${DAYS} days of fleet history (${NODES} nodes, ${CALLERS} callers each on 3 nodes a day, ${cellCount.toLocaleString('en-US')} daily cells) written to both stores`,
  'through Store.writeTally; the views the API answers from, timed in turns (SQLite file, local Postgres 17), ms over',
  `${SAMPLES} samples after 5 of warm-up.`,
  '',
  '| query | SQLite p50 / p95 | Postgres p50 / p95 | Postgres ÷ SQLite (p50) |',
  '| --- | --- | --- | --- |',
  ...rows,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
if ((process.env.BENCH_RECORD ?? '1') === '1' && DAYS === 365) {
  appendResults(lines.join('\n'));
  process.stderr.write(`recorded in ${RESULTS_FILE}\n`);
}
