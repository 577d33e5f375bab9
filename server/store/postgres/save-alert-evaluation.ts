import type { AlertRecord } from '../records/alert-record.js';
import type { AlertEvaluationSave } from '../store.js';
import { deleteAlerts } from './delete-alerts.js';
import type { PgDb } from './pg-db.js';
import { upsertAlertSetting } from './upsert-alert-setting.js';
import { upsertAlerts } from './upsert-alerts.js';

/** Saves what one evaluation changed, dropped and noted, in one transaction; answers the saved rows. */
export async function saveAlertEvaluation(db: PgDb, save: AlertEvaluationSave): Promise<AlertRecord[]> {
  return db.transaction(async (tx) => {
    const saved = await upsertAlerts(tx, save.changed);
    await deleteAlerts(tx, save.dropped);
    for (const setting of save.settings ?? []) await upsertAlertSetting(tx, setting.key, setting.value);
    return saved;
  });
}
