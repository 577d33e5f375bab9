/**
 * Traffic counts at three resolutions, each upserted in the same transaction per flush, so reads
 * over long ranges never scan minute rows.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, type SQLiteColumnBuilderBase } from 'drizzle-orm/sqlite-core';
import { ERAS, MESSAGE_KINDS, OUTCOMES, REASONS, TRANSPORTS } from '../../../protocol/vocabulary.js';

function trafficColumns() {
  return {
    bucketStart: integer('bucket_start').notNull(), // epoch ms, UTC bucket start
    node: text('node').notNull(),
    era: text('era', { enum: ERAS }).notNull(),
    transport: text('transport', { enum: TRANSPORTS }).notNull(),
    reason: text('reason', { enum: REASONS }).notNull(),
    version: text('version').notNull(),
    method: text('method').notNull(),
    // request, notification, response, stream-open, session-delete or other: the share counts requests only.
    kind: text('kind', { enum: MESSAGE_KINDS }).notNull(),
    outcome: text('outcome', { enum: OUTCOMES }).notNull(),
    integration: text('integration').notNull(),
    count: integer('count').notNull(),
    // How many of `count` carried modern headers that disagreed with the body.
    mismatchCount: integer('mismatch_count').notNull().default(0),
    // How many of `count` a plan in dry run, or a paused plan, would have refused: they were let through and served as counted.
    wouldBlockCount: integer('would_block_count').notNull().default(0),
  } satisfies Record<string, SQLiteColumnBuilderBase>;
}

type TrafficColumns = ReturnType<typeof trafficColumns>;

/**
 * `byIntegration`: an index for one caller's rows over a long range (hours and days, kept for
 * months). The minute table goes without: it takes the most writes of any table, every flush, and a
 * minute query spans at most about a week, which its primary key, led by the bucket, serves.
 */
function trafficTable(name: string, byIntegration: boolean, bridged = false) {
  return sqliteTable(name, trafficColumns(), (t: { [K in keyof TrafficColumns]: any }) => [
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

export const trafficMinuteTable = trafficTable('traffic_minute', false);
export const trafficHourTable = trafficTable('traffic_hour', true);
export const trafficDayTable = trafficTable('traffic_day', true, true);
export type TrafficTable = typeof trafficMinuteTable;
