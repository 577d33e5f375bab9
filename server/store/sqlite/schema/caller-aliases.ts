/**
 * Names joined into one caller: an operator says that an old fingerprint, a gateway name or an mTLS
 * subject is the same application as another caller. Counts keep the name they were counted under;
 * every read folds an alias into its caller, so a join applies to history as well as to new traffic,
 * and undoing it (deleting the row) gives each name its own history back.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const callerAliasesTable = sqliteTable(
  'caller_aliases',
  {
    alias: text('alias').primaryKey(),
    caller: text('caller').notNull(),
    createdAt: integer('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    note: text('note'),
  },
  (t) => [index('caller_aliases_caller_idx').on(t.caller)],
);
