/**
 * The database schema (drizzle). Traffic is kept at three resolutions, each upserted in the same
 * transaction per flush, so reads over long ranges never scan minute rows.
 */
import { index, integer, primaryKey, sqliteTable, text, type SQLiteColumnBuilderBase } from 'drizzle-orm/sqlite-core';

function trafficColumns() {
  return {
    bucketStart: integer('bucket_start').notNull(), // epoch ms, UTC bucket start
    node: text('node').notNull(),
    era: text('era').notNull(),
    transport: text('transport').notNull(),
    reason: text('reason').notNull(),
    version: text('version').notNull(),
    method: text('method').notNull(),
    outcome: text('outcome').notNull(),
    integration: text('integration').notNull(),
    count: integer('count').notNull(),
    // How many of `count` carried modern headers that disagreed with the body.
    mismatchCount: integer('mismatch_count').notNull().default(0),
  } satisfies Record<string, SQLiteColumnBuilderBase>;
}

type TrafficColumns = ReturnType<typeof trafficColumns>;

function trafficTable(name: string) {
  return sqliteTable(name, trafficColumns(), (t: { [K in keyof TrafficColumns]: any }) => [
    primaryKey({
      name: `${name}_pk`,
      columns: [t.bucketStart, t.node, t.era, t.transport, t.reason, t.version, t.method, t.outcome, t.integration],
    }),
    index(`${name}_integration_idx`).on(t.integration, t.bucketStart),
  ]);
}

export const trafficMinuteTable = trafficTable('traffic_minute');
export const trafficHourTable = trafficTable('traffic_hour');
export const trafficDayTable = trafficTable('traffic_day');
export type TrafficTable = typeof trafficMinuteTable;

export const integrationsTable = sqliteTable('integrations', {
  key: text('key').primaryKey(), // trusted key: a fingerprint, never a raw secret
  source: text('source').notNull(), // how the key was obtained: bearer-fingerprint, anonymous, …
  firstSeen: integer('first_seen').notNull(),
  lastSeen: integer('last_seen').notNull(),
  lastLegacySeen: integer('last_legacy_seen'),
  // Self-reported clientInfo: shown as "claims to be …", never used to decide anything.
  clientInfoName: text('client_info_name'),
  clientInfoVersion: text('client_info_version'),
});

export const settingsTable = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
