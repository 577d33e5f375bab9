import type { Db } from '../../server/store/sqlite/open-database.js';
import { createTallyWriter } from '../../server/store/sqlite/write-tally-batch.js';
import type { TallyCell } from '../../server/tally/tally-cell.js';

const DAY_MS = 86_400_000;

export interface DailyTrafficSpec {
  /** Days of history ending with the day before `now`. */
  days: number;
  now: number;
  /** Served requests per day. */
  servedPerDay: number;
  /** Legacy share on day i (0 = oldest). */
  legacyShare: (day: number) => number;
  /** Who sends the legacy traffic: key → weight. */
  legacyCallers?: Record<string, number>;
  modernCaller?: string;
  /** Refused legacy requests per day (unsupported-version). */
  refusedPerDay?: number;
}

function cell(minute: number, overrides: Partial<TallyCell>): TallyCell {
  return {
    minute,
    node: 'seed',
    era: 'modern',
    transport: 'streamable-http',
    reason: 'modern-meta',
    version: '2026-07-28',
    method: 'tools/call',
    kind: 'request',
    outcome: 'served',
    integration: 'tok_modern',
    count: 0,
    mismatchCount: 0,
    ...overrides,
  };
}

/** Writes daily served traffic with a chosen legacy share through the real tally writer. */
export function seedDailyTraffic(db: Db, spec: DailyTrafficSpec): void {
  const write = createTallyWriter(db);
  const callers = Object.entries(spec.legacyCallers ?? { tok_legacy: 1 });
  const weightSum = callers.reduce((sum, [, w]) => sum + w, 0);
  const firstDay = Math.floor(spec.now / DAY_MS) * DAY_MS - spec.days * DAY_MS;
  const cells: TallyCell[] = [];
  for (let i = 0; i < spec.days; i += 1) {
    const noon = firstDay + i * DAY_MS + DAY_MS / 2;
    const legacy = Math.round(spec.servedPerDay * spec.legacyShare(i));
    cells.push(cell(noon, { count: spec.servedPerDay - legacy, integration: spec.modernCaller ?? 'tok_modern' }));
    let left = legacy;
    callers.forEach(([integration, weight], index) => {
      // The last caller takes the rounding remainder, so the day's legacy count is exact.
      const count = index === callers.length - 1 ? left : Math.min(left, Math.round((legacy * weight) / weightSum));
      left -= count;
      if (count > 0) cells.push(cell(noon, { era: 'legacy', reason: 'session-header', version: '2025-11-25', integration, count }));
    });
    if (spec.refusedPerDay) cells.push(cell(noon, { era: 'legacy', reason: 'initialize', version: '2025-11-25', method: 'initialize', outcome: 'unsupported-version', integration: 'anonymous', count: spec.refusedPerDay }));
  }
  const lastDay = firstDay + (spec.days - 1) * DAY_MS;
  const sighting = (key: string, legacy: boolean) => ({
    key,
    source: key.startsWith('tok_') ? 'bearer-fingerprint' : 'static-map',
    firstSeen: firstDay,
    lastSeen: lastDay,
    lastLegacySeen: legacy ? lastDay : undefined,
    clientInfo: { name: `${key}-client`, version: '1.0' },
  });
  const integrations = [
    ...callers.filter(([key]) => key !== 'anonymous').map(([key]) => sighting(key, true)),
    sighting(spec.modernCaller ?? 'tok_modern', false),
  ];
  write({ cells, integrations });
}
