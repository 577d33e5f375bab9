/**
 * Whether a caller has started to move off the legacy era, from what it was served. Pure.
 * A caller that sends modern traffic beside its legacy traffic is moving; one that sends only legacy
 * is not: different phone calls. Judged on served work requests in a window, with what the registry
 * remembers of legacy use before it.
 */

/** The states, each with the call it suggests. */
export const MIGRATION_STATES = [
  // Only legacy work in the window: nothing shows it has started; the one to call first.
  'legacy-only',
  // Legacy and modern work in the window: it has started, and the legacy rest is what is left.
  'migrating',
  // Only modern work in the window, after legacy use before it: done, as far as the counts show.
  'moved',
  // Only modern work, and never legacy work: nothing to retire here.
  'modern-only',
] as const;

export type MigrationState = (typeof MIGRATION_STATES)[number];

export interface EraUseFacts {
  /** Served legacy work requests in the window. */
  legacy: number;
  /** Served modern work requests in the window. */
  modern: number;
  /** Whether legacy work was ever served to it, the window included. */
  everLegacy: boolean;
}

/** The caller's state; null when it was served no work in the window (quiet: nothing to tell). */
export function migrationState(use: EraUseFacts): MigrationState | null {
  if (use.legacy > 0) return use.modern > 0 ? 'migrating' : 'legacy-only';
  if (use.modern > 0) return use.everLegacy ? 'moved' : 'modern-only';
  return null;
}
