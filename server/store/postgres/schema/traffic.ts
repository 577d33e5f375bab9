import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { ERAS, MESSAGE_KINDS, OUTCOMES, REASONS, TRANSPORTS } from '../../../protocol/vocabulary.js';

function trafficColumns() {
  return {
    bucketStart: bigint('bucket_start', { mode: 'number' }).notNull(),
    node: text('node').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    transport: text('transport', { enum: TRANSPORTS }).notNull(),
    reason: text('reason', { enum: REASONS }).notNull(),
    version: text('version').notNull(),
    method: text('method').notNull(),
    kind: text('kind', { enum: MESSAGE_KINDS }).notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    integration: text('integration').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    mismatchCount: bigint('mismatch_count', { mode: 'number' }).notNull().default(0),
    wouldBlockCount: bigint('would_block_count', { mode: 'number' }).notNull().default(0),
  } satisfies Record<string, PgColumnBuilderBase>;
}

type TrafficColumns = ReturnType<typeof trafficColumns>;

/**
 * `byIntegration`: an index for one caller's rows over a long range (hours and days, kept for
 * months). The minute table goes without: it takes the most writes of any table, every flush, and a
 * minute query spans at most about a week, which its primary key, led by the bucket, serves.
 */
function trafficTable(name: string, byIntegration: boolean, bridged = false) {
  return pgTable(name, trafficColumns(), (t: { [K in keyof TrafficColumns]: any }) => [
    primaryKey({
      name: `${name}_pk`,
      columns: [t.bucketStart, t.node, t.era, t.transport, t.reason, t.version, t.method, t.kind, t.outcome, t.integration],
    }),
    ...(byIntegration ? [index(`${name}_integration_idx`).on(t.integration, t.bucketStart)] : []),
    // The bridged share reads only the bridge's rows of a range: a partial index holds just those, so
    // no other write touches it and the read skips every other reason.
    ...(bridged ? [index(`${name}_bridge_idx`).on(t.bucketStart).where(sql`reason = 'bridge'`)] : []),
  ]);
}

/** The traffic tables of the SQLite schema, on Postgres. */
export const trafficMinuteTable = trafficTable('traffic_minute', false);
export const trafficHourTable = trafficTable('traffic_hour', true);
export const trafficDayTable = trafficTable('traffic_day', true, true);
export type TrafficTable = typeof trafficMinuteTable;
