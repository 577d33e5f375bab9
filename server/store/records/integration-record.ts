export const INTEGRATION_STATUSES = ['unknown', 'contacted', 'migrating', 'exempt', 'done'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/** A caller identified by a trusted mechanism; the operator's notes about it sit beside what was measured. */
export interface IntegrationRecord {
  /** A fingerprint or configured name, never a raw secret. */
  key: string;
  /** How the key was obtained: bearer-fingerprint, gateway-header, static-map, mtls-subject, … */
  source: string;
  firstSeen: number;
  lastSeen: number;
  lastLegacySeen: number | null;
  /** Self-reported clientInfo: shown as "claims to be …", never used to decide anything. */
  clientInfoName: string | null;
  clientInfoVersion: string | null;
  displayName: string | null;
  owner: string | null;
  contact: string | null;
  status: IntegrationStatus;
  notes: string | null;
  updatedAt: number | null;
  /** Set when the caller was marked done on its own, after the quiet days; the status it had then comes back if it returns. */
  autoClosedAt: number | null;
  statusBeforeClose: IntegrationStatus | null;
  reopenedAt: number | null;
  /**
   * The application's own name from its Client ID Metadata Document (its OAuth client_id is that URL),
   * and when the document was last fetched, whether or not that fetch brought a name (a failed one keeps
   * the name before it); null when never fetched. A claim: shown beside the URL, never used to decide anything.
   */
  clientName: string | null;
  clientNameAt: number | null;
}

/** What operators edit about a caller. */
export interface IntegrationChanges {
  displayName?: string | null;
  owner?: string | null;
  contact?: string | null;
  status?: IntegrationStatus;
  notes?: string | null;
}

export type IntegrationClosure =
  | { kind: 'close'; key: string; statusBeforeClose: IntegrationStatus }
  | { kind: 'reopen'; key: string; status: IntegrationStatus }
  | { kind: 'forget-close'; key: string };
