import { asc, inArray } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { brownoutsTable, planExemptionsTable, plansTable } from './schema/index.js';
import type { BrownoutRecord, ExemptionRecord, PlanRecord } from '../records/plan-record.js';
import { shapePlanRecords } from '../shape-plan-records.js';

export type PlanRow = typeof plansTable.$inferSelect;

/** Attaches each plan's brownout windows, in start order, and its exemptions. */
export function withBrownouts(db: Db, rows: PlanRow[]): PlanRecord[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const windows = db.select().from(brownoutsTable).where(inArray(brownoutsTable.planId, ids)).orderBy(asc(brownoutsTable.startsAt)).all();
  const exemptions = db.select().from(planExemptionsTable).where(inArray(planExemptionsTable.planId, ids)).orderBy(asc(planExemptionsTable.until), asc(planExemptionsTable.id)).all();
  return shapePlanRecords(rows, windows, exemptions);
}

/** Replaces a plan's brownout windows with the given ones. */
export function replaceBrownouts(db: Db, planId: number, brownouts: readonly BrownoutRecord[]): void {
  db.delete(brownoutsTable).where(inArray(brownoutsTable.planId, [planId])).run();
  for (const window of brownouts) db.insert(brownoutsTable).values({ planId, ...window }).run();
}

/** Replaces a plan's exemptions with the given ones. */
export function replaceExemptions(db: Db, planId: number, exemptions: readonly ExemptionRecord[]): void {
  db.delete(planExemptionsTable).where(inArray(planExemptionsTable.planId, [planId])).run();
  for (const exemption of exemptions) db.insert(planExemptionsTable).values({ planId, ...exemption }).run();
}
