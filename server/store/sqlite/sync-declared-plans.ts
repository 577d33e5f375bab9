import { isNotNull } from 'drizzle-orm';
import { insertPlan } from './insert-plan.js';
import type { Db } from './open-database.js';
import { withBrownouts } from './plan-record.js';
import { samePlanFields } from '../same-plan-fields.js';
import { plansTable } from './schema/index.js';
import { updatePlan } from './update-plan.js';
import type { DeclaredPlan, DeclaredPlansSync } from '../records/declared-plan.js';

/**
 * Makes the stored declared plans match the file, in one transaction: a new key is inserted, a
 * changed plan updated, a key gone from the file archived (its history stays), a key back in the file
 * restored. Unchanged plans are not written, so the policy version moves only on a real change.
 * Plans created through the API have no key and are never touched.
 */
export function syncDeclaredPlans(db: Db, declared: readonly DeclaredPlan[], now: number): DeclaredPlansSync {
  return db.transaction(() => {
    const result: DeclaredPlansSync = { inserted: [], updated: [], archived: [], restored: [], unchanged: [] };
    const stored = new Map(withBrownouts(db, db.select().from(plansTable).where(isNotNull(plansTable.declaredKey)).all()).map((plan) => [plan.declaredKey!, plan]));
    for (const { key, plan } of declared) {
      const current = stored.get(key);
      stored.delete(key);
      if (current === undefined) {
        insertPlan(db, { ...plan, declaredKey: key }, now);
        result.inserted.push(key);
        continue;
      }
      const same = samePlanFields(current, plan);
      if (same && current.archivedAt === null) {
        result.unchanged.push(key);
        continue;
      }
      updatePlan(db, current.id, { ...(same ? {} : plan), archived: false }, now);
      if (current.archivedAt !== null) result.restored.push(key);
      if (!same) result.updated.push(key);
    }
    for (const [key, plan] of stored) {
      if (plan.archivedAt !== null) continue;
      updatePlan(db, plan.id, { archived: true }, now);
      result.archived.push(key);
    }
    return result;
  });
}
