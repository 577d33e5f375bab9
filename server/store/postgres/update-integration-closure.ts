import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { IntegrationClosure } from '../records/integration-record.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable } from './schema/index.js';

/**
 * Applies an automatic close or reopen, leaving the operator's `updatedAt` alone. Answers whether a
 * row changed: a row already closed, reopened or edited in between is not touched.
 */
export async function updateIntegrationClosure(db: PgDb, closure: IntegrationClosure, now: number): Promise<boolean> {
  const t = integrationsTable;
  const byKey = eq(t.key, closure.key);
  const changed = (result: { rowCount: number | null }) => (result.rowCount ?? 0) > 0;
  switch (closure.kind) {
    case 'close':
      return changed(await db.update(t).set({ status: 'done', autoClosedAt: now, statusBeforeClose: closure.statusBeforeClose }).where(and(byKey, isNull(t.autoClosedAt), eq(t.status, closure.statusBeforeClose))));
    case 'reopen':
      return changed(await db.update(t).set({ status: closure.status, reopenedAt: now, autoClosedAt: null, statusBeforeClose: null }).where(and(byKey, isNotNull(t.autoClosedAt), eq(t.status, 'done'))));
    case 'forget-close':
      return changed(await db.update(t).set({ autoClosedAt: null, statusBeforeClose: null }).where(and(byKey, isNotNull(t.autoClosedAt))));
  }
}
