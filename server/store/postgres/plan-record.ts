import { asc, inArray } from 'drizzle-orm';
import type { BrownoutRecord, ExemptionRecord, PlanRecord } from '../records/plan-record.js';
import { shapePlanRecords } from '../shape-plan-records.js';
import type { PgDb } from './pg-db.js';
import { brownoutsTable, planExemptionsTable, plansTable } from './schema/index.js';

export type PlanRow = typeof plansTable.$inferSelect;

/** Attaches each plan's brownout windows, in start order, and its exemptions. */
export async function withBrownouts(db: PgDb, rows: PlanRow[]): Promise<PlanRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const windows = await db.select().from(brownoutsTable).where(inArray(brownoutsTable.planId, ids)).orderBy(asc(brownoutsTable.startsAt), asc(brownoutsTable.id));
  const exemptions = await db
    .select()
    .from(planExemptionsTable)
    .where(inArray(planExemptionsTable.planId, ids))
    .orderBy(asc(planExemptionsTable.until), asc(planExemptionsTable.id));
  return shapePlanRecords(rows, windows, exemptions);
}

/** Replaces a plan's brownout windows with the given ones. */
export async function replaceBrownouts(db: PgDb, planId: number, brownouts: readonly BrownoutRecord[]): Promise<void> {
  await db.delete(brownoutsTable).where(inArray(brownoutsTable.planId, [planId]));
  if (brownouts.length > 0) await db.insert(brownoutsTable).values(brownouts.map((window) => ({ planId, ...window })));
}

/** Replaces a plan's exemptions with the given ones. */
export async function replaceExemptions(db: PgDb, planId: number, exemptions: readonly ExemptionRecord[]): Promise<void> {
  await db.delete(planExemptionsTable).where(inArray(planExemptionsTable.planId, [planId]));
  if (exemptions.length > 0) await db.insert(planExemptionsTable).values(exemptions.map((exemption) => ({ planId, ...exemption })));
}
