import { createSeededRandom } from '../../server/lib/create-seeded-random.js';
import type { Db } from '../../server/store/sqlite/open-database.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The six versions callers speak, with the transport that carries each. */
const VERSIONS = [
  { version: '2026-07-28', era: 'modern', transport: 'streamable-http', reason: 'modern-meta' },
  { version: 'DRAFT-2026-v1', era: 'modern', transport: 'streamable-http', reason: 'modern-meta' },
  { version: '2025-11-25', era: 'legacy', transport: 'streamable-http', reason: 'session-header' },
  { version: '2025-06-18', era: 'legacy', transport: 'streamable-http', reason: 'session-header' },
  { version: '2025-03-26', era: 'legacy', transport: 'streamable-http', reason: 'assumed-2025-03-26' },
  { version: '2024-11-05', era: 'legacy', transport: 'http+sse', reason: 'sse-message' },
] as const;

export interface SeedStats {
  cells: number;
  requests: number;
  seconds: number;
}

/**
 * One year of hourly traffic for `callers` integrations over the six versions, written through
 * the real flush path (minute, hour and day rows plus the rollups), one day per transaction.
 * Legacy callers move to the modern era at a random day, so the legacy share declines.
 */
export function seedYearOfTraffic(db: Db, end: number, callers = 500, days = 365): SeedStats {
  const started = Date.now();
  // Deterministic, so every run measures the same database.
  const random = createSeededRandom(20261130);
  const write = createTallyWriter(db);
  const firstDay = Math.floor(end / DAY_MS) * DAY_MS - days * DAY_MS;
  const population = Array.from({ length: callers }, (_, i) => {
    const legacy = random() < 0.7;
    const version = legacy ? VERSIONS[2 + Math.floor(random() * 4)]! : VERSIONS[Math.floor(random() * 2)]!;
    return {
      key: `tok_${i.toString(16).padStart(16, '0')}`,
      version,
      migratesOnDay: legacy ? Math.floor(random() * days * 1.3) : -1,
      perHour: 1 + Math.floor(random() * 30),
    };
  });
  let cells = 0;
  let requests = 0;
  for (let d = 0; d < days; d += 1) {
    const batch: TallyCell[] = [];
    for (let h = 0; h < 24; h += 1) {
      const minute = firstDay + d * DAY_MS + h * HOUR_MS;
      for (const caller of population) {
        const path = caller.version.era === 'legacy' && d >= caller.migratesOnDay ? VERSIONS[0] : caller.version;
        const count = Math.max(1, Math.round(caller.perHour * (0.5 + random())));
        batch.push({
          minute,
          node: 'bench',
          era: path.era,
          transport: path.transport,
          reason: path.reason,
          version: path.version,
          method: 'tools/call',
          kind: 'request',
          outcome: 'served',
          integration: caller.key,
          count,
          mismatchCount: 0,
        });
        requests += count;
      }
    }
    write({ cells: batch, integrations: [] });
    cells += batch.length;
  }
  const sightings = population.map((caller) => ({
    key: caller.key,
    source: 'bearer-fingerprint',
    firstSeen: firstDay,
    lastSeen: end,
    lastLegacySeen: caller.version.era === 'legacy' ? firstDay + Math.min(caller.migratesOnDay, days) * DAY_MS : undefined,
    clientInfo: undefined,
  }));
  write({ cells: [], integrations: sightings });
  return { cells, requests, seconds: (Date.now() - started) / 1000 };
}
