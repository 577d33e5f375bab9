import type { AlertSettingKey } from '../records/alert-setting-key.js';
import type { Db } from './open-database.js';
import { settingsTable } from './schema/index.js';

export function upsertAlertSetting(db: Db, key: AlertSettingKey, value: string): void {
  db.insert(settingsTable).values({ key, value }).onConflictDoUpdate({ target: settingsTable.key, set: { value } }).run();
}
