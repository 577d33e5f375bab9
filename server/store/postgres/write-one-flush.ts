import { getTableName } from 'drizzle-orm';
import type pg from 'pg';
import type { Bucket } from '../../lib/time-bucket.js';
import type { NodeHeartbeat, SequencedBatch, TallyWrite } from '../../tally/tally-cell.js';
import { eventsInBatch } from '../spool-file.js';
import { FLUSH_CELL_COLUMNS, flushCellColumns } from './flush-cell-columns.js';
import type { PgDb } from './pg-db.js';
import {
  ADD_TRAFFIC,
  CLAIM_COLUMNS,
  CLAIM_KEY,
  claimRows,
  LEGACY_CALLER_COLUMNS,
  LEGACY_CALLER_KEY,
  SHARE_COLUMNS,
  SHARE_KEY,
  rollupRows,
  TRAFFIC_COLUMNS,
  TRAFFIC_KEY,
  TRAFFIC_TABLES,
  writeSightings,
  type Column,
} from './write-tally-cells.js';

interface Part {
  name: string;
  table: string;
  columns: readonly Column<any>[];
  key: string;
  update: string;
}

const PARTS: readonly Part[] = [
  { name: 'share', table: 'share_day', columns: SHARE_COLUMNS, key: SHARE_KEY, update: 'count = t.count + excluded.count' },
  { name: 'legacy', table: 'legacy_caller_day', columns: LEGACY_CALLER_COLUMNS, key: LEGACY_CALLER_KEY, update: 'count = t.count + excluded.count' },
  { name: 'claims', table: 'claimed_client_day', columns: CLAIM_COLUMNS, key: CLAIM_KEY, update: 'count = t.count + excluded.count' },
];

const LABELS = TRAFFIC_COLUMNS.map(([name]) => name).filter((name) => name !== 'bucket_start' && !name.endsWith('count'));
const SUMS = TRAFFIC_COLUMNS.map(([name]) => name).filter((name) => name.endsWith('count'));

/** $1–$4 the stream, $5–$10 the heartbeat, then one array parameter per cell column, then per column of each part. */
const FIRST_ARRAY = 11;

/**
 * The cells summed per table's key, in key order: Postgres refuses one upsert touching a key twice,
 * and flushes that lock rows in one order never deadlock. The order is byte order, as the
 * multi-batch writer's (collation "C" is also the cheapest to sort by).
 */
function trafficPart(bucket: Bucket, table: string): string {
  const start = `${bucket}_start`;
  const key = [start, ...LABELS];
  const sums = SUMS.map((name) => `sum(${name})::bigint`);
  const order = [start, ...LABELS.map((name) => `${name} collate "C"`)];
  return `${bucket} as (insert into "${table}" as t (${TRAFFIC_COLUMNS.map(([name]) => name).join(', ')}) select ${[...key, ...sums].join(', ')} from cells group by ${key.join(', ')} order by ${order.join(', ')} on conflict (${TRAFFIC_KEY}) do update set ${ADD_TRAFFIC})`;
}

function statementText(): string {
  let next = FIRST_ARRAY;
  const cellArrays = FLUSH_CELL_COLUMNS.map(([, type]) => `$${next++}::${type}[]`).join(', ');
  const cells = `cells as (select * from unnest(${cellArrays}) as c(${FLUSH_CELL_COLUMNS.map(([name]) => name).join(', ')}) where exists (select 1 from accepted))`;
  const traffic = TRAFFIC_TABLES.map(([bucket, table]) => trafficPart(bucket, getTableName(table)));
  const parts = PARTS.map((part) => {
    const names = part.columns.map(([name]) => name).join(', ');
    const arrays = part.columns.map(([, type]) => `$${next++}::${type}[]`).join(', ');
    return `${part.name} as (insert into "${part.table}" as t (${names}) select * from unnest(${arrays}) where exists (select 1 from accepted) on conflict (${part.key}) do update set ${part.update})`;
  });
  return [
    'with accepted as (',
    '  insert into tally_streams as t (stream, node, last_seq, updated_at) values ($1, $2, $3, $4)',
    '  on conflict (stream) do update set last_seq = excluded.last_seq, updated_at = excluded.updated_at, node = excluded.node',
    '  where t.last_seq < excluded.last_seq returning 1',
    '), heartbeat as (',
    '  insert into sidecar_nodes as t (node, kind, first_seen, last_flush_at, policy_version, started_at)',
    '  select $5, $6, $7, $7, $8, $9 where $10::boolean',
    '  on conflict (node) do update set kind = excluded.kind, last_flush_at = excluded.last_flush_at, policy_version = excluded.policy_version, started_at = excluded.started_at',
    `), ${[cells, ...traffic, ...parts].join(', ')}`,
    'select count(*)::int as written from accepted',
  ].join('\n');
}

const TEXT = statementText();

/**
 * One flush of one batch in a single statement, hence one round trip and one implicit transaction:
 * the stream moves past the batch's sequence number, and only if it did are the counts written;
 * the heartbeat goes with it. Named, so each connection parses and plans it once. Two attempts of
 * one batch at once serialise on the stream's row: the later one finds it moved and writes no counts.
 *
 * Every row that statement locks is the node's own. The callers' sightings are rows every node
 * shares, so they follow in a short statement of their own: inside the counts' transaction, nodes
 * that see the same callers queued on those rows for the whole of each other's flush (under load,
 * up to the statement timeout). They merge idempotently, so a retry after the second statement
 * failed finds its counts written and writes the sightings again.
 */
export async function writeOneFlush(pool: pg.Pool, db: PgDb, batch: SequencedBatch, now: number, heartbeat: NodeHeartbeat | undefined): Promise<TallyWrite> {
  const rows = rollupRows([batch.batch]);
  const byPart: Record<string, readonly unknown[]> = {
    share: rows.share,
    legacy: rows.legacyCallers,
    claims: claimRows([batch.batch]),
  };
  const values: unknown[] = [
    batch.stream,
    batch.node,
    batch.seq,
    now,
    heartbeat?.node ?? null,
    heartbeat?.kind ?? null,
    heartbeat?.at ?? null,
    heartbeat?.policyVersion ?? null,
    heartbeat?.startedAt ?? null,
    heartbeat !== undefined,
  ];
  values.push(...flushCellColumns(batch.batch));
  for (const part of PARTS) for (const [, , read] of part.columns) values.push(byPart[part.name]!.map((row) => read(row)));
  const result = await pool.query<{ written: number }>({ name: 'mcp-sunset-write-one-flush', text: TEXT, values });
  const written = result.rows[0]?.written ?? 0;
  if (batch.batch.integrations.length > 0 || (batch.batch.people?.length ?? 0) > 0) await writeSightings(db, [batch.batch]);
  return { written, skipped: 1 - written, writtenEvents: written === 1 ? eventsInBatch(batch.batch) : 0 };
}
