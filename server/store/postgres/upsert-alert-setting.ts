import type { AlertSettingKey } from '../records/alert-setting-key.js';
import type { PgDb } from './pg-db.js';
import { settingsTable } from './schema/index.js';

export async function upsertAlertSetting(db: PgDb, key: AlertSettingKey, value: string): Promise<void> {
  await db.insert(settingsTable).values({ key, value }).onConflictDoUpdate({ target: settingsTable.key, set: { value } });
}
