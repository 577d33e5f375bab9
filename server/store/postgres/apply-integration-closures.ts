import type { IntegrationClosure } from '../records/integration-record.js';
import type { PgDb } from './pg-db.js';
import { updateIntegrationClosure } from './update-integration-closure.js';

/** Applies the closures in one transaction; answers those that changed a row. */
export async function applyIntegrationClosures(db: PgDb, closures: readonly IntegrationClosure[], now: number): Promise<IntegrationClosure[]> {
  if (closures.length === 0) return [];
  return db.transaction(async (tx) => {
    const applied: IntegrationClosure[] = [];
    for (const closure of closures) if (await updateIntegrationClosure(tx, closure, now)) applied.push(closure);
    return applied;
  });
}
