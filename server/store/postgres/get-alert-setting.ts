import { eq } from 'drizzle-orm';
import type { AlertSettingKey } from '../records/alert-setting-key.js';
import type { PgDb } from './pg-db.js';
import { settingsTable } from './schema/index.js';

export async function getAlertSetting(db: PgDb, key: AlertSettingKey): Promise<string | undefined> {
  const rows = await db.select().from(settingsTable).where(eq(settingsTable.key, key));
  return rows[0]?.value;
}
