import { isLegacyServed, isServed } from '../../protocol/served.js';
import { ERAS, OUTCOMES, type Era } from '../../protocol/vocabulary.js';
import { isWorkRequest } from '../../protocol/work-request.js';
import type { Store } from '../../store/store.js';

export interface TrafficReport {
  from: string;
  to: string;
  total: number;
  /** Every counted message, by era. */
  byEra: Record<Era, number>;
  /** Work requests the server answered with a result, in either era. */
  servedWorkRequests: number;
  /** Of those, the ones the legacy path served. */
  legacyServedWorkRequests: number;
  /** Share of served work requests the legacy path served, 0..1, or null when none was served. */
  legacyShare: number | null;
  byVersion: { version: string; era: Era; count: number }[];
}

const DAY_MS = 86_400_000;

/** The last 24 hours by era and by version, from the stored hourly counts. */
export async function buildReport(store: Store, now: number): Promise<TrafficReport> {
  const range = { from: now - DAY_MS, to: now, bucket: 'hour' as const };
  const eras = await store.listTraffic({ ...range, groupBy: 'era', filters: {} });
  const byEra = Object.fromEntries(ERAS.map((era) => [era, eras.totals[era] ?? 0])) as Record<Era, number>;
  const total = ERAS.reduce((sum, era) => sum + byEra[era], 0);
  const perEra = await Promise.all(ERAS.map(async (era) => ({ era, totals: (await store.listTraffic({ ...range, groupBy: 'version', filters: { era } })).totals })));
  const byVersion = perEra
    .flatMap(({ era, totals }) => Object.entries(totals).map(([version, count]) => ({ version, era, count })))
    .sort((a, b) => b.count - a.count || a.version.localeCompare(b.version));
  const { served, legacyServed } = await servedWork(store, range);
  return {
    from: eras.from,
    to: eras.to,
    total,
    byEra,
    servedWorkRequests: served,
    legacyServedWorkRequests: legacyServed,
    legacyShare: served === 0 ? null : legacyServed / served,
    byVersion,
  };
}

/** Served work requests and the legacy-served part of them: the same basis as the dashboard's share. */
async function servedWork(store: Store, range: { from: number; to: number; bucket: 'hour' }): Promise<{ served: number; legacyServed: number }> {
  let served = 0;
  let legacyServed = 0;
  for (const era of ERAS) {
    for (const outcome of OUTCOMES.filter(isServed)) {
      const methods = (await store.listTraffic({ ...range, groupBy: 'method', filters: { kind: 'request', era, outcome } })).totals;
      for (const [method, count] of Object.entries(methods)) {
        if (!isWorkRequest('request', method)) continue;
        served += count;
        if (isLegacyServed(era, outcome)) legacyServed += count;
      }
    }
  }
  return { served, legacyServed };
}

/** The report as a terminal table. */
export function formatReport(report: TrafficReport, dbPath: string): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const pct = (value: number) => (report.total === 0 ? '' : `${((100 * value) / report.total).toFixed(1)}%`);
  const lines = [
    `mcp-sunset report: last 24 h (${report.from} to ${report.to})`,
    `database: ${dbPath}`,
    '',
    `${'era'.padEnd(10)}${'messages'.padStart(12)}${'share'.padStart(9)}`,
    ...ERAS.map((era) => `${era.padEnd(10)}${n(report.byEra[era]).padStart(12)}${pct(report.byEra[era]).padStart(9)}`),
    `${'total'.padEnd(10)}${n(report.total).padStart(12)}`,
    '',
    report.legacyShare === null
      ? 'legacy share: no served work requests in this window'
      : `legacy share of served work requests: ${(100 * report.legacyShare).toFixed(2)}% (${n(report.legacyServedWorkRequests)} of ${n(report.servedWorkRequests)})`,
    '',
    `${'version'.padEnd(16)}${'era'.padEnd(10)}${'messages'.padStart(12)}`,
    ...report.byVersion.map((row) => `${row.version.padEnd(16)}${row.era.padEnd(10)}${n(row.count).padStart(12)}`),
  ];
  return `${lines.join('\n')}\n`;
}
