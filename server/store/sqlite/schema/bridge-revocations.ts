import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Legacy-bridge sessions no longer honoured, though their tokens are genuine: every node reads them.
 * A row matters only until the token itself expires; the retention pass deletes it after that.
 */
export const bridgeRevocationsTable = sqliteTable(
  'bridge_revocations',
  {
    sessionId: text('session_id').primaryKey(), // the id inside the token, not the token
    revokedAt: integer('revoked_at').notNull(),
    expiresAt: integer('expires_at').notNull(), // the token's own expiry
    reason: text('reason'),
  },
  (t) => [index('bridge_revocations_expires_at_idx').on(t.expiresAt)],
);
