import { desc, eq, sql } from 'drizzle-orm';
import type { AlertListing, AlertState } from '../records/alert-record.js';
import { shapeAlertListings } from '../shape-alert-listings.js';
import type { Db } from './open-database.js';
import { alertDeliveriesTable, alertsTable } from './schema/index.js';

/** Alerts, optionally in one state, most recently evaluated first, each with a summary of its deliveries. */
export function listAlerts(db: Db, options: { state?: AlertState } = {}): AlertListing[] {
  const query = db.select().from(alertsTable);
  const rows = (options.state === undefined ? query : query.where(eq(alertsTable.state, options.state)))
    .orderBy(desc(alertsTable.lastEvaluatedAt), desc(alertsTable.id))
    .all();
  if (rows.length === 0) return [];
  const d = alertDeliveriesTable;
  const summaries = db
    .select({
      alertId: d.alertId,
      delivered: sql<number>`sum(case when ${d.status} = 'delivered' then 1 else 0 end)`,
      failed: sql<number>`sum(case when ${d.status} = 'failed' then 1 else 0 end)`,
      lastAt: sql<number>`max(${d.at})`,
      lastError: sql<string | null>`(select f.last_error from alert_deliveries f where f.alert_id = ${d.alertId} and f.status = 'failed' order by f.at desc, f.id desc limit 1)`,
    })
    .from(d)
    .groupBy(d.alertId)
    .all();
  return shapeAlertListings(rows, summaries);
}
