import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/** The joined caller names of the SQLite schema, on Postgres. */
export const callerAliasesTable = pgTable(
  'caller_aliases',
  {
    alias: text('alias').primaryKey(),
    caller: text('caller').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    createdBy: text('created_by').notNull(),
    note: text('note'),
  },
  (t) => [index('caller_aliases_caller_idx').on(t.caller)],
);
