import { asc, isNull } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { withBrownouts } from './plan-record.js';
import type { PlanRecord } from '../records/plan-record.js';
import { plansTable } from './schema/index.js';

/** Plans in retire-date order; archived ones only when asked for. */
export function listPlans(db: Db, options: { includeArchived?: boolean } = {}): PlanRecord[] {
  const query = db.select().from(plansTable);
  const rows = (options.includeArchived ? query : query.where(isNull(plansTable.archivedAt))).orderBy(asc(plansTable.retireDate), asc(plansTable.id)).all();
  return withBrownouts(db, rows);
}
