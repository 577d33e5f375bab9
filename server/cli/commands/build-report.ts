import { ERAS, type Era } from '../../protocol/vocabulary.js';
import { listTraffic } from '../../store/list-traffic.js';
import type { Db } from '../../store/open-database.js';

export interface TrafficReport {
  from: string;
  to: string;
  total: number;
  byEra: Record<Era, number>;
  /** Share of counted messages that took the legacy path, 0..1, or null with no traffic. */
  legacyShare: number | null;
  byVersion: { version: string; era: Era; count: number }[];
}

const DAY_MS = 86_400_000;

/** The last 24 hours by era and by version, from the stored hourly counts. */
export function buildReport(db: Db, now: number): TrafficReport {
  const range = { from: now - DAY_MS, to: now, bucket: 'hour' as const };
  const eras = listTraffic(db, { ...range, groupBy: 'era', filters: {} });
  const byEra = Object.fromEntries(ERAS.map((era) => [era, eras.totals[era] ?? 0])) as Record<Era, number>;
  const total = ERAS.reduce((sum, era) => sum + byEra[era], 0);
  const byVersion = ERAS.flatMap((era) =>
    Object.entries(listTraffic(db, { ...range, groupBy: 'version', filters: { era } }).totals).map(([version, count]) => ({ version, era, count })),
  ).sort((a, b) => b.count - a.count || a.version.localeCompare(b.version));
  const eraTotal = byEra.legacy + byEra.modern;
  return { from: eras.from, to: eras.to, total, byEra, legacyShare: eraTotal === 0 ? null : byEra.legacy / eraTotal, byVersion };
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
      ? 'legacy share: no traffic counted in this window'
      : `legacy share (legacy / (legacy + modern)): ${(100 * report.legacyShare).toFixed(2)}%`,
    '',
    `${'version'.padEnd(16)}${'era'.padEnd(10)}${'messages'.padStart(12)}`,
    ...report.byVersion.map((row) => `${row.version.padEnd(16)}${row.era.padEnd(10)}${n(row.count).padStart(12)}`),
  ];
  return `${lines.join('\n')}\n`;
}
