import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { integrationsTable } from './schema/index.js';
import type { IntegrationClosure } from '../records/integration-record.js';

/**
 * Applies an automatic close or reopen. `updatedAt` is the operator's and is left alone, so a later
 * edit through the API can be told from the close. Answers whether a row changed: a row already
 * closed, reopened or edited in between is not touched.
 */
export function updateIntegrationClosure(db: Db, closure: IntegrationClosure, now: number): boolean {
  const t = integrationsTable;
  const byKey = eq(t.key, closure.key);
  switch (closure.kind) {
    case 'close':
      return db.update(t).set({ status: 'done', autoClosedAt: now, statusBeforeClose: closure.statusBeforeClose }).where(and(byKey, isNull(t.autoClosedAt), eq(t.status, closure.statusBeforeClose))).run().changes > 0;
    case 'reopen':
      return db.update(t).set({ status: closure.status, reopenedAt: now, autoClosedAt: null, statusBeforeClose: null }).where(and(byKey, isNotNull(t.autoClosedAt), eq(t.status, 'done'))).run().changes > 0;
    case 'forget-close':
      return db.update(t).set({ autoClosedAt: null, statusBeforeClose: null }).where(and(byKey, isNotNull(t.autoClosedAt))).run().changes > 0;
  }
}
