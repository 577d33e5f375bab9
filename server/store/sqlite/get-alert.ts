import { desc, eq } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { alertDeliveriesTable, alertsTable } from './schema/index.js';
import type { AlertWithDeliveries } from '../records/alert-record.js';

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
