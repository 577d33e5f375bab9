import { bigint, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { PROBED_ERAS } from '../../records/probe-record.js';

/** The probes table of the SQLite schema, on Postgres. */
export const probesTable = pgTable(
  'probes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    node: text('node').notNull(),
    target: text('target').notNull(),
    era: text('era', { enum: PROBED_ERAS }),
    state: text('state').notNull(),
    evidenceClass: text('evidence_class').notNull(),
    evidenceCode: text('evidence_code').notNull(),
    detail: text('detail').notNull(),
    version: text('version'),
    supportedVersions: jsonb('supported_versions').$type<string[]>().notNull(),
    legacyAccepted: boolean('legacy_accepted'),
    serverInfo: jsonb('server_info').$type<{ name: string; version: string } | null>(),
    latencyMs: bigint('latency_ms', { mode: 'number' }).notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  (t) => [index('probes_node_at_idx').on(t.node, t.at)],
);
