import { desc, eq } from 'drizzle-orm';
import type { AlertDeliveryRecord, AlertRecord } from './alert-record.js';
import type { Db } from './open-database.js';
import { alertDeliveriesTable, alertsTable } from './schema/index.js';

export interface AlertWithDeliveries extends AlertRecord {
  /** Newest first. */
  deliveries: AlertDeliveryRecord[];
}

export function getAlert(db: Db, id: number): AlertWithDeliveries | undefined {
  const row = db.select().from(alertsTable).where(eq(alertsTable.id, id)).get();
  if (row === undefined) return undefined;
  const deliveries = db
    .select()
    .from(alertDeliveriesTable)
    .where(eq(alertDeliveriesTable.alertId, id))
    .orderBy(desc(alertDeliveriesTable.at), desc(alertDeliveriesTable.id))
    .all();
  return { ...row, deliveries };
}
