import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { SIDECAR_KINDS } from '../../../tally/tally-cell.js';

/** The sidecar nodes table of the SQLite schema, on Postgres. */
export const sidecarNodesTable = pgTable('sidecar_nodes', {
  node: text('node').primaryKey(),
  kind: text('kind', { enum: SIDECAR_KINDS }).notNull(),
  firstSeen: bigint('first_seen', { mode: 'number' }).notNull(),
  lastFlushAt: bigint('last_flush_at', { mode: 'number' }).notNull(),
  policyVersion: bigint('policy_version', { mode: 'number' }).notNull(),
  startedAt: bigint('started_at', { mode: 'number' }).notNull(),
});
