import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { SIDECAR_KINDS } from '../../../tally/tally-cell.js';

/** The sidecars writing to this store: one row per node, touched by each of its flushes. */
export const sidecarNodesTable = sqliteTable('sidecar_nodes', {
  node: text('node').primaryKey(), // the configured node name
  kind: text('kind', { enum: SIDECAR_KINDS }).notNull(),
  firstSeen: integer('first_seen').notNull(),
  lastFlushAt: integer('last_flush_at').notNull(),
  // The stored policy version its compiled policy came from at that flush.
  policyVersion: integer('policy_version').notNull(),
  startedAt: integer('started_at').notNull(),
});
