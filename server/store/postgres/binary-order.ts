import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * Text ordered byte by byte, as SQLite orders it: the database's own collation (en_US, say) would
 * put `B` after `a` and answer the two backends' lists in different orders.
 */
export function binaryOrder(column: SQLWrapper): SQL {
  return sql`${column} collate "C"`;
}
