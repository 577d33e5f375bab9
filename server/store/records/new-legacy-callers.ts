export interface NewLegacyCaller {
  integration: string;
  /** The first UTC day the legacy path served the caller work. */
  firstDay: number;
  displayName: string | null;
  clientInfoName: string | null;
}

export interface NewLegacyCallers {
  /** The first UTC day the legacy path served any caller work; null before it did. */
  meteredSince: number | null;
  /** Callers whose first day of served legacy work is `sinceDay` or later, earliest first. */
  callers: NewLegacyCaller[];
}
