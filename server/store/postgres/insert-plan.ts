import type { PlanInput, PlanRecord } from '../records/plan-record.js';
import { gateColumns } from '../gate-columns.js';
import { getPlan } from './get-plan.js';
import type { PgDb } from './pg-db.js';
import { replaceBrownouts, replaceExemptions } from './plan-record.js';
import { bumpPolicyVersion } from './policy-version.js';
import { plansTable } from './schema/index.js';

export async function insertPlan(db: PgDb, input: PlanInput, now: number): Promise<PlanRecord> {
  return db.transaction(async (tx) => {
    const { brownouts, exemptions, gate, ...fields } = input;
    const [row] = await tx.insert(plansTable).values({ ...fields, ...gateColumns(gate), createdAt: now, updatedAt: now }).returning({ id: plansTable.id });
    await replaceBrownouts(tx, row!.id, brownouts);
    await replaceExemptions(tx, row!.id, exemptions);
    await bumpPolicyVersion(tx, now);
    return (await getPlan(tx, row!.id))!;
  });
}
