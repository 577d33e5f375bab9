import { getTableName, sql } from 'drizzle-orm';
import { bucketStart, type Bucket } from '../../lib/time-bucket.js';
import type { ClaimCell, IntegrationSighting, PersonSighting, TallyBatch, TallyCell } from '../../tally/tally-cell.js';
import { rollupValues } from '../rollup-values.js';
import { sightingValues } from '../sighting-values.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable, legacyCallerDayTable, shareDayTable, trafficDayTable, trafficHourTable, trafficMinuteTable, type TrafficTable } from './schema/index.js';

const SEPARATOR = '\u0000';

/** A column a flush writes: its SQL name and type, and how to read it off a row. */
export type Column<T> = readonly [name: string, type: 'bigint' | 'text', read: (row: T) => string | number | null];

export type TrafficRow = typeof trafficMinuteTable.$inferInsert & { mismatchCount: number; wouldBlockCount: number };
export type ShareRow = typeof shareDayTable.$inferInsert;
export type LegacyCallerRow = typeof legacyCallerDayTable.$inferInsert;
export type IntegrationRow = Pick<typeof integrationsTable.$inferInsert, 'key' | 'source' | 'firstSeen' | 'lastSeen' | 'lastLegacySeen' | 'clientInfoName' | 'clientInfoVersion'>;

export const TRAFFIC_COLUMNS: readonly Column<TrafficRow>[] = [
  ['bucket_start', 'bigint', (r) => r.bucketStart],
  ['node', 'text', (r) => r.node],
  ['era', 'text', (r) => r.era],
  ['transport', 'text', (r) => r.transport],
  ['reason', 'text', (r) => r.reason],
  ['version', 'text', (r) => r.version],
  ['method', 'text', (r) => r.method],
  ['kind', 'text', (r) => r.kind],
  ['outcome', 'text', (r) => r.outcome],
  ['integration', 'text', (r) => r.integration],
  ['count', 'bigint', (r) => r.count],
  ['mismatch_count', 'bigint', (r) => r.mismatchCount],
  ['would_block_count', 'bigint', (r) => r.wouldBlockCount],
];
export const TRAFFIC_KEY = 'bucket_start, node, era, transport, reason, version, method, kind, outcome, integration';
export const ADD_TRAFFIC = 'count = t.count + excluded.count, mismatch_count = t.mismatch_count + excluded.mismatch_count, would_block_count = t.would_block_count + excluded.would_block_count';

export const SHARE_COLUMNS: readonly Column<ShareRow>[] = [
  ['day', 'bigint', (r) => r.day],
  ['node', 'text', (r) => r.node],
  ['era', 'text', (r) => r.era],
  ['transport', 'text', (r) => r.transport],
  ['version', 'text', (r) => r.version],
  ['outcome', 'text', (r) => r.outcome],
  ['request_class', 'text', (r) => r.requestClass],
  ['count', 'bigint', (r) => r.count],
];
export const SHARE_KEY = 'day, node, era, transport, version, outcome, request_class';

export const LEGACY_CALLER_COLUMNS: readonly Column<LegacyCallerRow>[] = [
  ['day', 'bigint', (r) => r.day],
  ['node', 'text', (r) => r.node],
  ['integration', 'text', (r) => r.integration],
  ['count', 'bigint', (r) => r.count],
];

export const CLAIM_COLUMNS: readonly Column<ClaimCell>[] = [
  ['day', 'bigint', (r) => r.day],
  ['node', 'text', (r) => r.node],
  ['era', 'text', (r) => r.era],
  ['kind', 'text', (r) => r.kind],
  ['name', 'text', (r) => r.name],
  ['version', 'text', (r) => r.version],
  ['count', 'bigint', (r) => r.count],
];
export const CLAIM_KEY = 'day, node, era, kind, name, version';

/** The batches' claims, summed by key, storable and in key order. */
export function claimRows(batches: readonly TallyBatch[]): ClaimCell[] {
  const claims = new Map<string, ClaimCell>();
  for (const batch of batches) {
    for (const raw of batch.claims ?? []) {
      const row = { ...raw, node: storable(raw.node), name: storable(raw.name), version: storable(raw.version) };
      add(claims, [row.day, row.node, row.era, row.kind, row.name, row.version].join(SEPARATOR), row);
    }
  }
  return sortedRows(claims);
}

export const PERSON_COLUMNS: readonly Column<PersonSighting>[] = [
  ['day', 'bigint', (r) => r.day],
  ['integration', 'text', (r) => r.integration],
  ['era', 'text', (r) => r.era],
  ['transport', 'text', (r) => r.transport],
  ['version', 'text', (r) => r.version],
  ['subject', 'text', (r) => r.subject],
];
export const PERSON_KEY = 'day, integration, era, transport, version, subject';

export const INTEGRATION_COLUMNS: readonly Column<IntegrationRow>[] = [
  ['key', 'text', (r) => r.key],
  ['source', 'text', (r) => r.source],
  ['first_seen', 'bigint', (r) => r.firstSeen],
  ['last_seen', 'bigint', (r) => r.lastSeen],
  ['last_legacy_seen', 'bigint', (r) => r.lastLegacySeen ?? null],
  ['client_info_name', 'text', (r) => r.clientInfoName ?? null],
  ['client_info_version', 'text', (r) => r.clientInfoVersion ?? null],
];
const MERGED_SIGHTING: readonly (readonly [column: string, merged: string])[] = [
  ['first_seen', 'least(t.first_seen, excluded.first_seen)'],
  ['last_seen', 'greatest(t.last_seen, excluded.last_seen)'],
  ['last_legacy_seen', 'nullif(greatest(coalesce(t.last_legacy_seen, 0), coalesce(excluded.last_legacy_seen, 0)), 0)'],
  ['client_info_name', 'coalesce(excluded.client_info_name, t.client_info_name)'],
  ['client_info_version', 'coalesce(excluded.client_info_version, t.client_info_version)'],
];
/**
 * As the SQLite upsert merges a sighting into the stored caller; `source` stays the first one's.
 * Every node sights the same callers, mostly within a minute they were already sighted in: a merge
 * that changes nothing is left out, which spares the shared row a new version (and its WAL).
 */
export const MERGE_INTEGRATION = [
  MERGED_SIGHTING.map(([column, merged]) => `${column} = ${merged}`).join(', '),
  `where (${MERGED_SIGHTING.map(([column]) => `t.${column}`).join(', ')}) is distinct from (${MERGED_SIGHTING.map(([, merged]) => merged).join(', ')})`,
].join(' ');

export const TRAFFIC_TABLES: readonly [Bucket, TrafficTable][] = [
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

/**
 * One multi-row upsert of any number of rows: each column travels as one array parameter and
 * `unnest` turns them back into rows, in order. The statement's text is the same for every flush,
 * so it stays small and needs no chunking under the 65535-parameter limit.
 */
async function upsertRows<T>(db: PgDb, table: string, columns: readonly Column<T>[], rows: readonly T[], key: string, update: string | null): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type, read]) => sql`${sql.param(rows.map(read))}::${sql.raw(type)}[]`);
  const onConflict = update === null ? sql.raw('do nothing') : sql`do update set ${sql.raw(update)}`;
  await db.execute(
    sql`insert into ${sql.identifier(table)} as t (${sql.raw(names)}) select * from unnest(${sql.join(arrays, sql`, `)}) on conflict (${sql.raw(key)}) ${onConflict}`,
  );
}

/**
 * Postgres text cannot hold NUL, and labels are client-chosen (a method, a clientInfo name): one NUL
 * would fail every retry of the flush. It is stored as U+FFFD, before the cells are summed by key,
 * so a label that differs only there folds into the same row rather than into one statement twice.
 */
function storable(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

export function storableCell(cell: TallyCell): TallyCell {
  // Almost every cell is clean: it goes as it is, without a copy.
  if (!(cell.node.includes('\u0000') || cell.version.includes('\u0000') || cell.method.includes('\u0000') || cell.integration.includes('\u0000'))) return cell;
  return {
    ...cell,
    node: storable(cell.node),
    version: storable(cell.version),
    method: storable(cell.method),
    integration: storable(cell.integration),
  };
}

function storableSighting(sighting: IntegrationSighting): IntegrationSighting {
  const clientInfo = sighting.clientInfo === undefined ? undefined : { name: storable(sighting.clientInfo.name), version: storable(sighting.clientInfo.version) };
  return { ...sighting, key: storable(sighting.key), source: storable(sighting.source), clientInfo };
}

/**
 * Writes the batches' counts into the traffic tables and the rollups, as the SQLite writer does cell
 * by cell, but with one multi-row upsert per table: Postgres refuses one INSERT … ON CONFLICT that
 * touches a key twice, so the cells are first summed by each table's key. Every row carries the
 * node, so flushes of different nodes never lock the same row.
 */
export async function writeTallyCells(db: PgDb, batches: readonly TallyBatch[]): Promise<void> {
  const rows = tallyRows(batches);
  for (const [bucket, table] of TRAFFIC_TABLES) await upsertRows(db, getTableName(table), TRAFFIC_COLUMNS, rows.traffic[bucket], TRAFFIC_KEY, ADD_TRAFFIC);
  await upsertRows(db, 'share_day', SHARE_COLUMNS, rows.share, SHARE_KEY, 'count = t.count + excluded.count');
  await upsertRows(db, 'legacy_caller_day', LEGACY_CALLER_COLUMNS, rows.legacyCallers, LEGACY_CALLER_KEY, 'count = t.count + excluded.count');
  await upsertRows(db, 'claimed_client_day', CLAIM_COLUMNS, claimRows(batches), CLAIM_KEY, 'count = t.count + excluded.count');
}

/** The rows a flush upserts per table, summed by each table's key and in key order. */
export interface TallyRows {
  traffic: Record<Bucket, TrafficRow[]>;
  share: ShareRow[];
  legacyCallers: LegacyCallerRow[];
}

export const LEGACY_CALLER_KEY = 'day, node, integration';

/** The rollup rows a flush upserts (share per day and class, served legacy work per caller), summed by key and in key order. */
export interface RollupRows {
  share: ShareRow[];
  legacyCallers: LegacyCallerRow[];
}

export function rollupRows(batches: readonly TallyBatch[]): RollupRows {
  const share = new Map<string, ShareRow & { count: number }>();
  const legacyCallers = new Map<string, LegacyCallerRow & { count: number }>();
  for (const batch of batches) {
    for (const raw of batch.cells) {
      const rollup = rollupValues(storableCell(raw));
      if (rollup === null) continue;
      const { share: row, legacyCaller } = rollup;
      add(share, [row.day, row.node, row.era, row.transport, row.version, row.outcome, row.requestClass].join(SEPARATOR), row);
      if (legacyCaller !== null) add(legacyCallers, `${legacyCaller.day}${SEPARATOR}${legacyCaller.node}${SEPARATOR}${legacyCaller.integration}`, legacyCaller);
    }
  }
  return { share: sortedRows(share), legacyCallers: sortedRows(legacyCallers) };
}

export function tallyRows(batches: readonly TallyBatch[]): TallyRows {
  const traffic = new Map<Bucket, Map<string, TrafficRow>>(TRAFFIC_TABLES.map(([bucket]) => [bucket, new Map()]));

  for (const batch of batches) {
    for (const raw of batch.cells) {
      const cell = storableCell(raw);
      const { minute, wouldBlockCount, ...labels } = cell;
      const labelKey = [labels.node, labels.era, labels.transport, labels.reason, labels.version, labels.method, labels.kind, labels.outcome, labels.integration].join(SEPARATOR);
      for (const [bucket] of TRAFFIC_TABLES) {
        const start = bucketStart(minute, bucket);
        add(traffic.get(bucket)!, `${start}${SEPARATOR}${labelKey}`, { ...labels, bucketStart: start, wouldBlockCount: wouldBlockCount ?? 0 }, (into, row) => {
          into.mismatchCount += row.mismatchCount;
          into.wouldBlockCount += row.wouldBlockCount;
        });
      }
    }
  }

  return {
    traffic: { minute: sortedRows(traffic.get('minute')!), hour: sortedRows(traffic.get('hour')!), day: sortedRows(traffic.get('day')!) },
    ...rollupRows(batches),
  };
}

/**
 * Merges the batches' caller sightings into the integrations (earliest first seen, latest last seen,
 * newest clientInfo), and adds the people they saw. Both are rows every node shares, and both writes
 * are idempotent, so writing a sighting or a person twice changes nothing.
 */
export async function writeSightings(db: PgDb, batches: readonly TallyBatch[]): Promise<void> {
  await upsertRows(db, 'integrations', INTEGRATION_COLUMNS, sightingRows(batches), 'key', MERGE_INTEGRATION);
  await upsertRows(db, 'caller_people_day', PERSON_COLUMNS, personRows(batches), PERSON_KEY, null);
}

/** The batches' people, each once, storable and in key order (rows locked in one order never deadlock). */
export function personRows(batches: readonly TallyBatch[]): PersonSighting[] {
  const people = new Map<string, PersonSighting>();
  for (const batch of batches) {
    for (const raw of batch.people ?? []) {
      const row = { ...raw, integration: storable(raw.integration), version: storable(raw.version) };
      people.set([row.day, row.integration, row.era, row.transport, row.version, row.subject].join(SEPARATOR), row);
    }
  }
  return sortedRows(people);
}

/** The batches' sightings, merged per caller as the stored row will merge them, in key order. */
export function sightingRows(batches: readonly TallyBatch[]): IntegrationRow[] {
  const integrations = new Map<string, IntegrationRow>();
  for (const batch of batches) {
    for (const raw of batch.integrations) {
      const row: IntegrationRow = sightingValues(storableSighting(raw));
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

  return sortedRows(integrations);
}
