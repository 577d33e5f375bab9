import { eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { withBrownouts } from './plan-record.js';
import type { PlanRecord } from '../records/plan-record.js';
import { plansTable } from './schema/index.js';

export function getPlan(db: Db, id: number): PlanRecord | undefined {
  const row = db.select().from(plansTable).where(eq(plansTable.id, id)).get();
  return row === undefined ? undefined : withBrownouts(db, [row])[0];
}
