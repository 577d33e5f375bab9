import { and, gte, lt, sql } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { trafficDayTable } from './schema/index.js';
import { servedRequests } from '../served-in-scope.js';

/** Served work requests of every era and caller on the day rows starting in [from, to). */
export function sumServedRequests(db: Db, span: { from: number; to: number }): number {
  const t = trafficDayTable;
  const row = db
    .select({ served: sql<number>`coalesce(sum(${t.count}), 0)` })
    .from(t)
    .where(and(gte(t.bucketStart, span.from), lt(t.bucketStart, span.to), servedRequests(t)))
    .get();
  return row?.served ?? 0;
}
