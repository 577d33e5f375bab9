import { sql } from 'drizzle-orm';
import { bucketStart, type Bucket } from '../../lib/time-bucket.js';
import { isLegacyWorkServed } from '../../protocol/served.js';
import { classifyRequest } from '../../protocol/work-request.js';
import type { TallyBatch } from '../../tally/tally-cell.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable, legacyCallerDayTable, shareDayTable, trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from './schema/index.js';

/** Postgres binds at most 65535 parameters per statement. */
const MAX_PARAMETERS = 65_535;
const SEPARATOR = '\u0000';

type TrafficRow = typeof trafficMinuteTable.$inferInsert & { mismatchCount: number; wouldBlockCount: number };
type ShareRow = typeof shareDayTable.$inferInsert;
type LegacyCallerRow = typeof legacyCallerDayTable.$inferInsert;
type IntegrationRow = Pick<typeof integrationsTable.$inferInsert, 'key' | 'source' | 'firstSeen' | 'lastSeen' | 'lastLegacySeen' | 'clientInfoName' | 'clientInfoVersion'>;

const TRAFFIC_TABLES: readonly [Bucket, TrafficTable][] = [
  ['minute', trafficMinuteTable],
  ['hour', trafficHourTable],
  ['day', trafficDayTable],
];

/** Rows in key order: flushes of different nodes then lock shared rows in one order, and never deadlock. */
function sortedRows<T>(rows: Map<string, T>): T[] {
  return [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

function add<T extends { count: number }>(rows: Map<string, T>, key: string, row: T, merge: (into: T, row: T) => void = () => {}): void {
  const existing = rows.get(key);
  if (existing === undefined) rows.set(key, row);
  else {
    existing.count += row.count;
    merge(existing, row);
  }
}

async function upsertChunked<T>(rows: readonly T[], columns: number, upsert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  const size = Math.floor(MAX_PARAMETERS / columns);
  for (let i = 0; i < rows.length; i += size) await upsert(rows.slice(i, i + size));
}

/**
 * Writes the batches' counts into the traffic tables, the rollups and the integrations, as the
 * SQLite writer does cell by cell, but with one multi-row upsert per table: Postgres refuses one
 * INSERT … ON CONFLICT that touches a key twice, so the cells are first summed by each table's key.
 */
export async function writeTallyCells(db: PgDb, batches: readonly TallyBatch[]): Promise<void> {
  const traffic = new Map<Bucket, Map<string, TrafficRow>>(TRAFFIC_TABLES.map(([bucket]) => [bucket, new Map()]));
  const share = new Map<string, ShareRow & { count: number }>();
  const legacyCallers = new Map<string, LegacyCallerRow & { count: number }>();
  const integrations = new Map<string, IntegrationRow>();

  for (const batch of batches) {
    for (const cell of batch.cells) {
      const { minute, wouldBlockCount, ...labels } = cell;
      const labelKey = [labels.node, labels.era, labels.transport, labels.reason, labels.version, labels.method, labels.kind, labels.outcome, labels.integration].join(SEPARATOR);
      for (const [bucket] of TRAFFIC_TABLES) {
        const start = bucketStart(minute, bucket);
        add(traffic.get(bucket)!, `${start}${SEPARATOR}${labelKey}`, { ...labels, bucketStart: start, wouldBlockCount: wouldBlockCount ?? 0 }, (into, row) => {
          into.mismatchCount += row.mismatchCount;
          into.wouldBlockCount += row.wouldBlockCount;
        });
      }
      const requestClass = classifyRequest(cell.kind, cell.method);
      if (requestClass === null) continue;
      const day = bucketStart(minute, 'day');
      const shareKey = [day, cell.node, cell.era, cell.transport, cell.version, cell.outcome, requestClass].join(SEPARATOR);
      add(share, shareKey, { day, node: cell.node, era: cell.era, transport: cell.transport, version: cell.version, outcome: cell.outcome, requestClass, count: cell.count });
      if (isLegacyWorkServed(cell)) add(legacyCallers, `${day}${SEPARATOR}${cell.integration}`, { day, integration: cell.integration, count: cell.count });
    }
    for (const sighting of batch.integrations) {
      const row: IntegrationRow = {
        key: sighting.key,
        source: sighting.source,
        firstSeen: sighting.firstSeen,
        lastSeen: sighting.lastSeen,
        lastLegacySeen: sighting.lastLegacySeen ?? null,
        clientInfoName: sighting.clientInfo?.name ?? null,
        clientInfoVersion: sighting.clientInfo?.version ?? null,
      };
      const existing = integrations.get(row.key);
      // The same merge the upsert below makes with the stored row, so sightings in one call fold alike.
      if (existing === undefined) integrations.set(row.key, row);
      else
        integrations.set(row.key, {
          ...existing,
          firstSeen: Math.min(existing.firstSeen, row.firstSeen),
          lastSeen: Math.max(existing.lastSeen, row.lastSeen),
          lastLegacySeen: Math.max(existing.lastLegacySeen ?? 0, row.lastLegacySeen ?? 0) || null,
          clientInfoName: row.clientInfoName ?? existing.clientInfoName,
          clientInfoVersion: row.clientInfoVersion ?? existing.clientInfoVersion,
        });
    }
  }

  for (const [bucket, table] of TRAFFIC_TABLES) {
    const rows = sortedRows(traffic.get(bucket)!);
    if (rows.length === 0) continue;
    await upsertChunked(rows, 13, (chunk) =>
      db
        .insert(table)
        .values(chunk)
        .onConflictDoUpdate({
          target: [table.bucketStart, table.node, table.era, table.transport, table.reason, table.version, table.method, table.kind, table.outcome, table.integration],
          set: {
            count: sql`${table.count} + excluded.count`,
            mismatchCount: sql`${table.mismatchCount} + excluded.mismatch_count`,
            wouldBlockCount: sql`${table.wouldBlockCount} + excluded.would_block_count`,
          },
        }),
    );
  }
  const shareRows = sortedRows(share);
  if (shareRows.length > 0) {
    const t = shareDayTable;
    await upsertChunked(shareRows, 8, (chunk) =>
      db
        .insert(t)
        .values(chunk)
        .onConflictDoUpdate({ target: [t.day, t.node, t.era, t.transport, t.version, t.outcome, t.requestClass], set: { count: sql`${t.count} + excluded.count` } }),
    );
  }
  const legacyRows = sortedRows(legacyCallers);
  if (legacyRows.length > 0) {
    const t = legacyCallerDayTable;
    await upsertChunked(legacyRows, 3, (chunk) => db.insert(t).values(chunk).onConflictDoUpdate({ target: [t.day, t.integration], set: { count: sql`${t.count} + excluded.count` } }));
  }
  const integrationRows = sortedRows(integrations);
  if (integrationRows.length > 0) {
    const t = integrationsTable;
    await upsertChunked(integrationRows, 7, (chunk) =>
      db
        .insert(t)
        .values(chunk)
        .onConflictDoUpdate({
          target: t.key,
          set: {
            firstSeen: sql`least(${t.firstSeen}, excluded.first_seen)`,
            lastSeen: sql`greatest(${t.lastSeen}, excluded.last_seen)`,
            lastLegacySeen: sql`nullif(greatest(coalesce(${t.lastLegacySeen}, 0), coalesce(excluded.last_legacy_seen, 0)), 0)`,
            clientInfoName: sql`coalesce(excluded.client_info_name, ${t.clientInfoName})`,
            clientInfoVersion: sql`coalesce(excluded.client_info_version, ${t.clientInfoVersion})`,
          },
        }),
    );
  }
}
