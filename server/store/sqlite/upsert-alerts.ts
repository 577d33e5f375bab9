import type { AlertDraft, AlertRecord } from '../records/alert-record.js';
import type { Db } from './open-database.js';
import { alertsTable } from './schema/index.js';

/** Saves alerts by fingerprint (insert or replace every field); answers the stored rows with their ids. */
export function upsertAlerts(db: Db, drafts: readonly AlertDraft[]): AlertRecord[] {
  return drafts.map((draft) => {
    const { fingerprint, ...fields } = draft;
    return db.insert(alertsTable).values(draft).onConflictDoUpdate({ target: alertsTable.fingerprint, set: fields }).returning().get();
  });
}
