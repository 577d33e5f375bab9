import { isNotNull, sql } from 'drizzle-orm';
import { samePlanFields } from '../same-plan-fields.js';
import type { DeclaredPlan, DeclaredPlansSync } from '../records/declared-plan.js';
import { insertPlan } from './insert-plan.js';
import type { PgDb } from './pg-db.js';
import { withBrownouts } from './plan-record.js';
import { plansTable } from './schema/index.js';
import { updatePlan } from './update-plan.js';

/**
 * Makes the stored declared plans match the file, in one transaction: a new key is inserted, a
 * changed plan updated, a key gone from the file archived, a key back in the file restored.
 * Unchanged plans are not written, so the policy version moves only on a real change.
 */
export async function syncDeclaredPlans(db: PgDb, declared: readonly DeclaredPlan[], now: number): Promise<DeclaredPlansSync> {
  return db.transaction(async (tx) => {
    const result: DeclaredPlansSync = { inserted: [], updated: [], archived: [], restored: [], unchanged: [] };
    // Nodes starting together sync the same file: the second waits here and finds the first's plans.
    await tx.execute(sql`lock table ${plansTable} in share row exclusive mode`);
    const rows = await tx.select().from(plansTable).where(isNotNull(plansTable.declaredKey));
    const stored = new Map((await withBrownouts(tx, rows)).map((plan) => [plan.declaredKey!, plan]));
    for (const { key, plan } of declared) {
      const current = stored.get(key);
      stored.delete(key);
      if (current === undefined) {
        await insertPlan(tx, { ...plan, declaredKey: key }, now);
        result.inserted.push(key);
        continue;
      }
      const same = samePlanFields(current, plan);
      if (same && current.archivedAt === null) {
        result.unchanged.push(key);
        continue;
      }
      await updatePlan(tx, current.id, { ...(same ? {} : plan), archived: false }, now);
      if (current.archivedAt !== null) result.restored.push(key);
      if (!same) result.updated.push(key);
    }
    for (const [key, plan] of stored) {
      if (plan.archivedAt !== null) continue;
      await updatePlan(tx, plan.id, { archived: true }, now);
      result.archived.push(key);
    }
    return result;
  });
}
