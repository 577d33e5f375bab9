import type { DeclaredPlan, DeclaredPlansSync } from './records/declared-plan.js';
import type { PlanChanges, PlanInput, PlanRecord } from './records/plan-record.js';
import { samePlanFields } from './same-plan-fields.js';

/** One write of the sync: a plan to insert, or a stored plan's changes. */
export type DeclaredPlanWrite = { kind: 'insert'; input: PlanInput } | { kind: 'update'; id: number; changes: PlanChanges };

/**
 * What makes the stored declared plans match the file: a new key is inserted, a changed plan
 * updated, a key gone from the file archived (its history stays), a key back in the file restored;
 * unchanged plans get no write. The writes are in the file's order, then the archives; each store
 * makes them in one transaction and answers the result.
 */
export function computeDeclaredPlansSync(stored: readonly PlanRecord[], declared: readonly DeclaredPlan[]): { writes: DeclaredPlanWrite[]; result: DeclaredPlansSync } {
  const result: DeclaredPlansSync = { inserted: [], updated: [], archived: [], restored: [], unchanged: [] };
  const writes: DeclaredPlanWrite[] = [];
  const byKey = new Map(stored.map((plan) => [plan.declaredKey!, plan]));
  for (const { key, plan } of declared) {
    const current = byKey.get(key);
    byKey.delete(key);
    if (current === undefined) {
      writes.push({ kind: 'insert', input: { ...plan, declaredKey: key } });
      result.inserted.push(key);
      continue;
    }
    const same = samePlanFields(current, plan);
    if (same && current.archivedAt === null) {
      result.unchanged.push(key);
      continue;
    }
    writes.push({ kind: 'update', id: current.id, changes: { ...(same ? {} : plan), archived: false } });
    if (current.archivedAt !== null) result.restored.push(key);
    if (!same) result.updated.push(key);
  }
  for (const [key, plan] of byKey) {
    if (plan.archivedAt !== null) continue;
    writes.push({ kind: 'update', id: plan.id, changes: { archived: true } });
    result.archived.push(key);
  }
  return { writes, result };
}
