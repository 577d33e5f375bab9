import { asc, isNull } from 'drizzle-orm';
import type { PlanRecord } from '../records/plan-record.js';
import type { PgDb } from './pg-db.js';
import { withBrownouts } from './plan-record.js';
import { plansTable } from './schema/index.js';

/** Plans in retire-date order; archived ones only when asked for. */
export async function listPlans(db: PgDb, options: { includeArchived?: boolean } = {}): Promise<PlanRecord[]> {
  const query = db.select().from(plansTable);
  const rows = await (options.includeArchived ? query : query.where(isNull(plansTable.archivedAt))).orderBy(asc(plansTable.retireDate), asc(plansTable.id));
  return withBrownouts(db, rows);
}
