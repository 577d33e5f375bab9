import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { PROBED_ERAS } from '../../records/probe-record.js';

/** Fleet checks: one row per node per check, so drift and outages can be seen over time. */
export const probesTable = sqliteTable(
  'probes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    node: text('node').notNull(), // the configured fleet node name
    target: text('target').notNull(), // its endpoint URL or stdio:<command line>
    era: text('era', { enum: PROBED_ERAS }), // null when no era was settled
    state: text('state').notNull(), // ready | unavailable | incompatible | auth-required
    evidenceClass: text('evidence_class').notNull(),
    evidenceCode: text('evidence_code').notNull(),
    detail: text('detail').notNull(),
    version: text('version'),
    // Every version the node serves: modern ones from server/discover, legacy ones it accepted in initialize.
    supportedVersions: text('supported_versions', { mode: 'json' }).$type<string[]>().notNull(),
    legacyAccepted: integer('legacy_accepted', { mode: 'boolean' }),
    serverInfo: text('server_info', { mode: 'json' }).$type<{ name: string; version: string } | null>(),
    latencyMs: integer('latency_ms').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('probes_node_at_idx').on(t.node, t.at)],
);
