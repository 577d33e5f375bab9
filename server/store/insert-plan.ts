import type { Db } from './open-database.js';
import { getPlan } from './get-plan.js';
import { replaceBrownouts, type BrownoutRecord, type PlanRecord } from './plan-record.js';
import { plansTable, type PlanScopeKind } from './schema/index.js';

export interface PlanInput {
  name: string;
  scopeKind: PlanScopeKind;
  scopeValue: string;
  announceDate: string;
  retireDate: string;
  targetShare: number;
  policyUrl: string | null;
  brownouts: BrownoutRecord[];
}

export function insertPlan(db: Db, input: PlanInput, now: number): PlanRecord {
  return db.transaction(() => {
    const { brownouts, ...fields } = input;
    const row = db.insert(plansTable).values({ ...fields, createdAt: now, updatedAt: now }).returning({ id: plansTable.id }).get();
    replaceBrownouts(db, row.id, brownouts);
    return getPlan(db, row.id)!;
  });
}
