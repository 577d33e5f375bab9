import { and, gte, lt, sql } from 'drizzle-orm';
import type { PgDb } from './pg-db.js';
import { trafficDayTable } from './schema/index.js';
import { servedRequests } from '../served-in-scope.js';

/** Served work requests of every era and caller on the day rows starting in [from, to). */
export async function sumServedRequests(db: PgDb, span: { from: number; to: number }): Promise<number> {
  const t = trafficDayTable;
  const [row] = await db
    .select({ served: sql<number>`coalesce(sum(${t.count}), 0)`.mapWith(Number) })
    .from(t)
    .where(and(gte(t.bucketStart, span.from), lt(t.bucketStart, span.to), servedRequests(t)));
  return row?.served ?? 0;
}
