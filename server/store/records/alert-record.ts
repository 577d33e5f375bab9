/**
 * The alerts as either dialect stores them; dialect-neutral: both schemas build their columns from
 * these constants, and every layer above the store reads these types.
 */
export const ALERT_STATES = ['pending', 'firing', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** The transitions a webhook is told of. */
export const ALERT_TRANSITIONS = ['firing', 'resolved'] as const;
export const DELIVERY_FORMATS = ['json', 'slack'] as const;
export const DELIVERY_STATUSES = ['delivered', 'failed'] as const;

/**
 * One alert as stored: a fingerprint (rule + subject) with its state and latest finding. `pending`
 * counts consecutive positive evaluations before a rule that needs several (curve-flattened) fires.
 */
export interface AlertRecord {
  id: number;
  fingerprint: string;
  rule: string;
  subject: string;
  state: AlertState;
  severity: string;
  summary: string;
  details: Record<string, unknown>;
  consecutiveHits: number;
  firstFiredAt: number | null;
  lastFiredAt: number | null;
  resolvedAt: number | null;
  lastEvaluatedAt: number;
}

/** An alert before it has an id: what evaluation computes and `upsertAlerts` saves by fingerprint. */
export type AlertDraft = Omit<AlertRecord, 'id'>;

/** One delivery series (all attempts) of one transition to one webhook. */
export interface AlertDeliveryRecord {
  id: number;
  alertId: number;
  transition: (typeof ALERT_TRANSITIONS)[number];
  webhook: string;
  format: (typeof DELIVERY_FORMATS)[number];
  status: (typeof DELIVERY_STATUSES)[number];
  attempts: number;
  lastError: string | null;
  at: number;
}

export type AlertDeliveryInput = Omit<AlertDeliveryRecord, 'id'>;

export interface DeliverySummary {
  delivered: number;
  failed: number;
  /** The error of the latest failed delivery, if any failed. */
  lastError: string | null;
  lastAt: number | null;
}

export interface AlertListing extends AlertRecord {
  deliverySummary: DeliverySummary;
}

export interface AlertWithDeliveries extends AlertRecord {
  /** Newest first. */
  deliveries: AlertDeliveryRecord[];
}
