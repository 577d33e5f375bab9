import { isNotNull } from 'drizzle-orm';
import { computeDeclaredPlansSync } from '../compute-declared-plans-sync.js';
import { insertPlan } from './insert-plan.js';
import type { Db } from './open-database.js';
import { withBrownouts } from './plan-record.js';
import { plansTable } from './schema/index.js';
import { updatePlan } from './update-plan.js';
import type { DeclaredPlan, DeclaredPlansSync } from '../records/declared-plan.js';

/**
 * Makes the stored declared plans match the file, in one transaction (see computeDeclaredPlansSync).
 * Unchanged plans are not written, so the policy version moves only on a real change.
 * Plans created through the API have no key and are never touched.
 */
export function syncDeclaredPlans(db: Db, declared: readonly DeclaredPlan[], now: number): DeclaredPlansSync {
  return db.transaction(() => {
    const stored = withBrownouts(db, db.select().from(plansTable).where(isNotNull(plansTable.declaredKey)).all());
    const { writes, result } = computeDeclaredPlansSync(stored, declared);
    for (const write of writes) {
      if (write.kind === 'insert') insertPlan(db, write.input, now);
      else updatePlan(db, write.id, write.changes, now);
    }
    return result;
  });
}
