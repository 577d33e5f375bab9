import type { AlertDeliveryInput, AlertDeliveryRecord } from '../records/alert-record.js';
import type { Db } from './open-database.js';
import { alertDeliveriesTable } from './schema/index.js';

/** Records one delivery series (success or final failure) of a transition to a webhook. */
export function insertAlertDelivery(db: Db, delivery: AlertDeliveryInput): AlertDeliveryRecord {
  return db.insert(alertDeliveriesTable).values(delivery).returning().get();
}
