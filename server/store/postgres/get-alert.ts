import { desc, eq } from 'drizzle-orm';
import type { AlertWithDeliveries } from '../records/alert-record.js';
import type { PgDb } from './pg-db.js';
import { alertDeliveriesTable, alertsTable } from './schema/index.js';

export async function getAlert(db: PgDb, id: number): Promise<AlertWithDeliveries | undefined> {
  const [row] = await db.select().from(alertsTable).where(eq(alertsTable.id, id));
  if (row === undefined) return undefined;
  const deliveries = await db
    .select()
    .from(alertDeliveriesTable)
    .where(eq(alertDeliveriesTable.alertId, id))
    .orderBy(desc(alertDeliveriesTable.at), desc(alertDeliveriesTable.id));
  return { ...row, deliveries };
}
