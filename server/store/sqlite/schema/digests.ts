import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { DIGEST_KINDS, DIGEST_STATUSES, type DigestDelivery } from '../../records/digest-record.js';

/**
 * One digest sent (or being sent), with what it said. The unique key is what makes a scheduled one
 * go out once across restarts and a fleet: it names the schedule's instant, which every node's
 * schedule shares, and the node whose insert takes the row sends it.
 */
export const digestsTable = sqliteTable(
  'digests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull(),
    kind: text('kind', { enum: DIGEST_KINDS }).notNull(),
    node: text('node').notNull(),
    requestedBy: text('requested_by').notNull(),
    periodFrom: integer('period_from').notNull(),
    periodTo: integer('period_to').notNull(),
    claimedAt: integer('claimed_at').notNull(),
    finishedAt: integer('finished_at'),
    status: text('status', { enum: DIGEST_STATUSES }).notNull(),
    deliveries: text('deliveries', { mode: 'json' }).$type<DigestDelivery[]>().notNull(),
    summary: text('summary').notNull(),
    // The digest as the API answers it (times as ISO strings): what its readers were sent.
    content: text('content', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [uniqueIndex('digests_key_idx').on(t.key), index('digests_claimed_at_idx').on(t.claimedAt)],
);
