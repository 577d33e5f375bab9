import type { AlertDeliveryInput, AlertDeliveryRecord } from '../records/alert-record.js';
import type { PgDb } from './pg-db.js';
import { alertDeliveriesTable } from './schema/index.js';

/** Records one delivery series (success or final failure) of a transition to a webhook. */
export async function insertAlertDelivery(db: PgDb, delivery: AlertDeliveryInput): Promise<AlertDeliveryRecord> {
  const [row] = await db.insert(alertDeliveriesTable).values(delivery).returning();
  return row!;
}
