/**
 * Builders for synthetic traffic: daily ShareRow[] with a chosen in-scope share curve, weekday
 * seasonality and seeded noise, so trend tests are deterministic and their answers known.
 */
import { computeShareSeries, type SharePoint, type ShareRow } from '../../server/analysis/compute-share-series.js';
import { DAY_MS, WEEK_MS } from '../../server/analysis/compute-week-start.js';
import { createSeededRandom } from '../../server/lib/create-seeded-random.js';

/** Monday 2026-01-05 00:00 UTC: day 0 of every synthetic series. */
export const START = Date.UTC(2026, 0, 5);

/** mulberry32, shared with the demo's seeded history. */
export const createRandom = createSeededRandom;

/** A standard normal draw by Box–Muller. */
export function drawGaussian(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export interface DailyRowsOptions {
  days: number;
  /** The in-scope (legacy) share of served requests on day `dayIndex` (0 = START). */
  share: (dayIndex: number) => number;
  servedPerDay: number;
  /** Multiplies the share by weekday, 0 = Monday … 6 = Sunday. */
  weekdayFactor?: (weekday: number) => number;
  /** Relative standard deviation of a day's share (0.05 = ±5%). */
  noise?: number;
  seed?: number;
  start?: number;
}

/** Served legacy and modern rows per day; the legacy count is the rounded share of servedPerDay. */
export function dailyRows(options: DailyRowsOptions): ShareRow[] {
  const random = createRandom(options.seed ?? 1);
  const start = options.start ?? START;
  const rows: ShareRow[] = [];
  for (let d = 0; d < options.days; d++) {
    const wobble = 1 + (options.noise ?? 0) * drawGaussian(random);
    const share = Math.min(1, Math.max(0, options.share(d) * (options.weekdayFactor?.(d % 7) ?? 1) * wobble));
    const legacy = Math.round(options.servedPerDay * share);
    const day = start + d * DAY_MS;
    const base = { day, transport: 'streamable-http', requestClass: 'work' } as const;
    rows.push({ ...base, era: 'legacy', version: '2025-06-18', outcome: 'served', count: legacy });
    rows.push({ ...base, era: 'modern', version: '2026-07-28', outcome: 'served', count: options.servedPerDay - legacy });
  }
  return rows;
}

/** The weekly legacy-era series of `rows` over `weeks` weeks from START. */
export function weeklySeries(rows: readonly ShareRow[], weeks: number, start = START): SharePoint[] {
  return computeShareSeries({ rows, legacyIntegrations: [], scope: { kind: 'era', value: 'legacy' }, basis: 'work-requests', bucket: 'week', from: start, to: start + weeks * WEEK_MS });
}

/** Weekly points straight from shares (served fixed), for tests that skip the row stage. */
export function weeklyPoints(shares: readonly number[], start = START, served = 1_000_000): SharePoint[] {
  return shares.map((share, i) => ({
    start: start + i * WEEK_MS,
    served,
    inScope: share * served,
    share,
    refused: 0,
    failed: 0,
    probes: 0,
    negotiation: 0,
    legacyIntegrations: null,
    modernIntegrations: null,
    bridged: 0,
    bridgedShare: 0,
  }));
}

/** `now` at the end of `weeks` complete weeks from START. */
export function afterWeeks(weeks: number, start = START): number {
  return start + weeks * WEEK_MS;
}
