import type { AlertListing, AlertRecord, DeliverySummary } from './records/alert-record.js';

const NO_DELIVERIES: DeliverySummary = { delivered: 0, failed: 0, lastError: null, lastAt: null };

/** The alerts in the order given, each with its deliveries' summary: an alert with none has a summary of nothing delivered. */
export function shapeAlertListings(rows: readonly AlertRecord[], summaries: readonly (DeliverySummary & { alertId: number })[]): AlertListing[] {
  const byAlert = new Map(summaries.map(({ alertId, ...summary }) => [alertId, summary]));
  return rows.map((row) => ({ ...row, deliverySummary: byAlert.get(row.id) ?? NO_DELIVERIES }));
}
