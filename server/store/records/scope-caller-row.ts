/** One caller's served work requests in a plan's scope over a span of UTC day rows. */
export interface ScopeCallerRow {
  integration: string;
  requests: number;
  /** The start of the first UTC day in the span with served work in scope. */
  firstSeen: number;
  /** The start of the last UTC day with served work in scope. */
  lastSeen: number;
  versions: string[];
  transports: string[];
  /** How many of `requests` were marked would-block by a plan in dry run. */
  wouldBlock: number;
}
