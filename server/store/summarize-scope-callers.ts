import type { ScopeCallerRow } from './records/scope-caller-row.js';

/** One caller's sums for one version and transport, as either dialect's grouped day rows answer them. */
export interface ScopeCallerGroup {
  integration: string;
  version: string;
  transport: string;
  requests: number;
  firstSeen: number;
  lastSeen: number;
  wouldBlock: number;
}

/**
 * Folds the groups into one row per caller, in the order each caller first appears: its sums, its
 * first and last days, and its versions and transports in the order they appear.
 */
export function summarizeScopeCallers(groups: readonly ScopeCallerGroup[]): ScopeCallerRow[] {
  const callers = new Map<string, ScopeCallerRow>();
  for (const row of groups) {
    const caller = callers.get(row.integration) ?? { integration: row.integration, requests: 0, firstSeen: row.firstSeen, lastSeen: row.lastSeen, versions: [], transports: [], wouldBlock: 0 };
    caller.requests += row.requests;
    caller.wouldBlock += row.wouldBlock;
    caller.firstSeen = Math.min(caller.firstSeen, row.firstSeen);
    caller.lastSeen = Math.max(caller.lastSeen, row.lastSeen);
    if (!caller.versions.includes(row.version)) caller.versions.push(row.version);
    if (!caller.transports.includes(row.transport)) caller.transports.push(row.transport);
    callers.set(row.integration, caller);
  }
  return [...callers.values()];
}
