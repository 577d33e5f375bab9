import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Where a digest stands:
 * - sending: claimed by a node, which is delivering it (a node stopped mid-way leaves it so: it is not sent again);
 * - delivered: every webhook took it; failed: one or more did not, after their retries;
 * - no-channels: composed and kept, with no webhook configured to send it to.
 */
export const DIGEST_STATUSES = ['sending', 'delivered', 'failed', 'no-channels'] as const;
export type DigestStatus = (typeof DIGEST_STATUSES)[number];

/** What asked for it: its schedule, or someone through the API. */
export const DIGEST_KINDS = ['scheduled', 'on-demand'] as const;
export type DigestKind = (typeof DIGEST_KINDS)[number];

/** How one webhook took a digest. */
export interface DigestDelivery {
  webhook: string;
  format: 'json' | 'slack';
  status: 'delivered' | 'failed';
  attempts: number;
  lastError: string | null;
}

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
