import type { Db } from './open-database.js';
import { getPlan } from './get-plan.js';
import { replaceBrownouts, replaceExemptions } from './plan-record.js';
import { gateColumns } from '../gate-columns.js';
import type { PlanInput, PlanRecord } from '../records/plan-record.js';
import { bumpPolicyVersion } from './policy-version.js';
import { plansTable } from './schema/index.js';

export function insertPlan(db: Db, input: PlanInput, now: number): PlanRecord {
  return db.transaction(() => {
    const { brownouts, exemptions, gate, ...fields } = input;
    const row = db.insert(plansTable).values({ ...fields, ...gateColumns(gate), createdAt: now, updatedAt: now }).returning({ id: plansTable.id }).get();
    replaceBrownouts(db, row.id, brownouts);
    replaceExemptions(db, row.id, exemptions);
    bumpPolicyVersion(db, now);
    return getPlan(db, row.id)!;
  });
}
