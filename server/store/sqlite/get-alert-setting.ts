import { eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { settingsTable } from './schema/index.js';

/** Keys the alerts keep in `settings`, so they cannot collide with anyone else's. */
export type AlertSettingKey = 'alerts.meteringDroppedEvents' | 'alerts.lastRunAt';

export function getAlertSetting(db: Db, key: AlertSettingKey): string | undefined {
  return db.select().from(settingsTable).where(eq(settingsTable.key, key)).get()?.value;
}
