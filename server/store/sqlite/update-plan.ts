import { eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { getPlan } from './get-plan.js';
import { replaceBrownouts, replaceExemptions } from './plan-record.js';
import { gateColumns } from '../gate-columns.js';
import type { PlanChanges, PlanRecord } from '../records/plan-record.js';
import { bumpPolicyVersion } from './policy-version.js';
import { plansTable } from './schema/index.js';

/** Applies the given fields; answers undefined when there is no such plan. */
export function updatePlan(db: Db, id: number, changes: PlanChanges, now: number): PlanRecord | undefined {
  return db.transaction(() => {
    if (getPlan(db, id) === undefined) return undefined;
    const { brownouts, exemptions, gate, archived, ...fields } = changes;
    const archivedAt = archived === undefined ? {} : { archivedAt: archived ? now : null };
    const gateFields = gate === undefined ? {} : gateColumns(gate);
    db.update(plansTable).set({ ...fields, ...gateFields, ...archivedAt, updatedAt: now }).where(eq(plansTable.id, id)).run();
    if (brownouts !== undefined) replaceBrownouts(db, id, brownouts);
    if (exemptions !== undefined) replaceExemptions(db, id, exemptions);
    bumpPolicyVersion(db, now);
    return getPlan(db, id);
  });
}
