import type { alertDeliveriesTable, alertsTable } from './schema/index.js';

/** One alert as stored: a fingerprint (rule + subject) with its state and latest finding. */
export type AlertRecord = typeof alertsTable.$inferSelect;

/** An alert before it has an id: what evaluation computes and `upsertAlerts` saves by fingerprint. */
export type AlertDraft = Omit<AlertRecord, 'id'>;

/** One delivery series (all attempts) of one transition to one webhook. */
export type AlertDeliveryRecord = typeof alertDeliveriesTable.$inferSelect;
export type AlertDeliveryInput = Omit<AlertDeliveryRecord, 'id'>;

export interface DeliverySummary {
  delivered: number;
  failed: number;
  /** The error of the latest failed delivery, if any failed. */
  lastError: string | null;
  lastAt: number | null;
}
