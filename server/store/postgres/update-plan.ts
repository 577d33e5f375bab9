import { eq } from 'drizzle-orm';
import { gateColumns } from '../gate-columns.js';
import type { PlanChanges, PlanRecord } from '../records/plan-record.js';
import { getPlan } from './get-plan.js';
import type { PgDb } from './pg-db.js';
import { replaceBrownouts, replaceExemptions } from './plan-record.js';
import { bumpPolicyVersion } from './policy-version.js';
import { plansTable } from './schema/index.js';

/** Applies the given fields; answers undefined when there is no such plan. */
export async function updatePlan(db: PgDb, id: number, changes: PlanChanges, now: number): Promise<PlanRecord | undefined> {
  return db.transaction(async (tx) => {
    if ((await getPlan(tx, id)) === undefined) return undefined;
    const { brownouts, exemptions, gate, archived, ...fields } = changes;
    const archivedAt = archived === undefined ? {} : { archivedAt: archived ? now : null };
    const gateFields = gate === undefined ? {} : gateColumns(gate);
    await tx.update(plansTable).set({ ...fields, ...gateFields, ...archivedAt, updatedAt: now }).where(eq(plansTable.id, id));
    if (brownouts !== undefined) await replaceBrownouts(tx, id, brownouts);
    if (exemptions !== undefined) await replaceExemptions(tx, id, exemptions);
    await bumpPolicyVersion(tx, now);
    return getPlan(tx, id);
  });
}
