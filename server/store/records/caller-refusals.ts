export interface CallerRefusals {
  integration: string;
  displayName: string | null;
  /** Requests a plan refused in the hour that starts at `hourStart`. */
  inHour: number;
  /** Requests a plan refused in the 24 hours before it. */
  dayBefore: number;
}

/** Hours of history a caller's refusals are compared with. */
export const REFUSAL_BASELINE_HOURS = 24;
