import { eq } from 'drizzle-orm';
import type { PlanRecord } from '../records/plan-record.js';
import type { PgDb } from './pg-db.js';
import { withBrownouts } from './plan-record.js';
import { plansTable } from './schema/index.js';

export async function getPlan(db: PgDb, id: number): Promise<PlanRecord | undefined> {
  const rows = await db.select().from(plansTable).where(eq(plansTable.id, id));
  return rows.length === 0 ? undefined : (await withBrownouts(db, rows))[0];
}
