import type { AlertDraft, AlertRecord } from '../records/alert-record.js';
import type { PgDb } from './pg-db.js';
import { alertsTable } from './schema/index.js';

/** Saves alerts by fingerprint (insert or replace every field); answers the stored rows with their ids. */
export async function upsertAlerts(db: PgDb, drafts: readonly AlertDraft[]): Promise<AlertRecord[]> {
  const saved: AlertRecord[] = [];
  for (const draft of drafts) {
    const { fingerprint, ...fields } = draft;
    const [row] = await db.insert(alertsTable).values(draft).onConflictDoUpdate({ target: alertsTable.fingerprint, set: fields }).returning();
    saved.push(row!);
  }
  return saved;
}
