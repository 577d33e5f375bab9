import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/** The bridge revocations table of the SQLite schema, on Postgres. */
export const bridgeRevocationsTable = pgTable(
  'bridge_revocations',
  {
    sessionId: text('session_id').primaryKey(),
    revokedAt: bigint('revoked_at', { mode: 'number' }).notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    reason: text('reason'),
  },
  (t) => [index('bridge_revocations_expires_at_idx').on(t.expiresAt)],
);
