import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The caller a counted name stands for now: the caller it was joined into (`caller_aliases`), else
 * itself. Counts keep the name they were counted under, so every read that groups, filters or
 * counts callers folds it through this, in both dialects alike: a join then covers history as well
 * as new traffic, and undoing it gives the name its history back. The expression has no parameters,
 * so Postgres matches it in a GROUP BY to the same expression selected.
 */
export function callerOf(integration: SQLWrapper): SQL<string> {
  return sql<string>`coalesce((select ca.caller from caller_aliases ca where ca.alias = ${integration}), ${integration})`;
}
