import { isNotNull, sql } from 'drizzle-orm';
import { computeDeclaredPlansSync } from '../compute-declared-plans-sync.js';
import type { DeclaredPlan, DeclaredPlansSync } from '../records/declared-plan.js';
import { insertPlan } from './insert-plan.js';
import type { PgDb } from './pg-db.js';
import { withBrownouts } from './plan-record.js';
import { plansTable } from './schema/index.js';
import { updatePlan } from './update-plan.js';

/**
 * Makes the stored declared plans match the file, in one transaction (see computeDeclaredPlansSync).
 * Unchanged plans are not written, so the policy version moves only on a real change.
 */
export async function syncDeclaredPlans(db: PgDb, declared: readonly DeclaredPlan[], now: number): Promise<DeclaredPlansSync> {
  return db.transaction(async (tx) => {
    // Nodes starting together sync the same file: the second waits here and finds the first's plans.
    await tx.execute(sql`lock table ${plansTable} in share row exclusive mode`);
    const rows = await tx.select().from(plansTable).where(isNotNull(plansTable.declaredKey));
    const { writes, result } = computeDeclaredPlansSync(await withBrownouts(tx, rows), declared);
    for (const write of writes) {
      if (write.kind === 'insert') await insertPlan(tx, write.input, now);
      else await updatePlan(tx, write.id, write.changes, now);
    }
    return result;
  });
}
