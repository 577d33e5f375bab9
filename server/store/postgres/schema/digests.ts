import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DIGEST_KINDS, DIGEST_STATUSES, type DigestDelivery } from '../../records/digest-record.js';

/** The digests table of the SQLite schema, on Postgres. */
export const digestsTable = pgTable(
  'digests',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    key: text('key').notNull(),
    kind: text('kind', { enum: DIGEST_KINDS }).notNull(),
    node: text('node').notNull(),
    requestedBy: text('requested_by').notNull(),
    periodFrom: bigint('period_from', { mode: 'number' }).notNull(),
    periodTo: bigint('period_to', { mode: 'number' }).notNull(),
    claimedAt: bigint('claimed_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    status: text('status', { enum: DIGEST_STATUSES }).notNull(),
    deliveries: jsonb('deliveries').$type<DigestDelivery[]>().notNull(),
    summary: text('summary').notNull(),
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [uniqueIndex('digests_key_idx').on(t.key), index('digests_claimed_at_idx').on(t.claimedAt)],
);
