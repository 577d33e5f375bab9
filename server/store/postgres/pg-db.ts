import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.js';

/** The Postgres database or one of its transactions: every query takes either. */
export type PgDb = PgDatabase<NodePgQueryResultHKT, typeof schema>;
