import { eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { settingsTable } from './schema/index.js';
import type { AlertSettingKey } from '../records/alert-setting-key.js';

export function getAlertSetting(db: Db, key: AlertSettingKey): string | undefined {
  return db.select().from(settingsTable).where(eq(settingsTable.key, key)).get()?.value;
}
