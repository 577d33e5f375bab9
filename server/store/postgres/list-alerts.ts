import { desc, eq, sql } from 'drizzle-orm';
import type { AlertListing, AlertState } from '../records/alert-record.js';
import { shapeAlertListings } from '../shape-alert-listings.js';
import type { PgDb } from './pg-db.js';
import { alertDeliveriesTable, alertsTable } from './schema/index.js';

/** Alerts, optionally in one state, most recently evaluated first, each with a summary of its deliveries. */
export async function listAlerts(db: PgDb, options: { state?: AlertState } = {}): Promise<AlertListing[]> {
  const query = db.select().from(alertsTable);
  const rows = await (options.state === undefined ? query : query.where(eq(alertsTable.state, options.state))).orderBy(desc(alertsTable.lastEvaluatedAt), desc(alertsTable.id));
  if (rows.length === 0) return [];
  const d = alertDeliveriesTable;
  const summaries = await db
    .select({
      alertId: d.alertId,
      delivered: sql<number>`sum(case when ${d.status} = 'delivered' then 1 else 0 end)`.mapWith(Number),
      failed: sql<number>`sum(case when ${d.status} = 'failed' then 1 else 0 end)`.mapWith(Number),
      lastAt: sql<number>`max(${d.at})`.mapWith(Number),
      lastError: sql<string | null>`(select f.last_error from alert_deliveries f where f.alert_id = ${d.alertId} and f.status = 'failed' order by f.at desc, f.id desc limit 1)`,
    })
    .from(d)
    .groupBy(d.alertId);
  return shapeAlertListings(rows, summaries);
}
