import { eq } from 'drizzle-orm';
import type { PlanInput } from './insert-plan.js';
import type { Db } from './open-database.js';
import { getPlan } from './get-plan.js';
import { replaceBrownouts, type PlanRecord } from './plan-record.js';
import { plansTable } from './schema/index.js';

export type PlanChanges = Partial<PlanInput> & { archived?: boolean };

/** Applies the given fields; answers undefined when there is no such plan. */
export function updatePlan(db: Db, id: number, changes: PlanChanges, now: number): PlanRecord | undefined {
  return db.transaction(() => {
    if (getPlan(db, id) === undefined) return undefined;
    const { brownouts, archived, ...fields } = changes;
    const archivedAt = archived === undefined ? {} : { archivedAt: archived ? now : null };
    db.update(plansTable).set({ ...fields, ...archivedAt, updatedAt: now }).where(eq(plansTable.id, id)).run();
    if (brownouts !== undefined) replaceBrownouts(db, id, brownouts);
    return getPlan(db, id);
  });
}
