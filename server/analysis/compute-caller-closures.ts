/**
 * Which callers close themselves and which come back. Pure.
 * Invariants: a caller is closed only after it used a plan's scope and then stayed quiet in every
 * active plan's scope for the largest `quietDays` among the plans it used, counted from the end of
 * its last day of use (the same reckoning as the usage gate, so a closed caller holds no gate);
 * a status the operator set after an automatic close is never overwritten.
 */
import { DAY_MS } from './compute-week-start.js';

export interface ClosableCaller<S extends string> {
  key: string;
  status: S;
  /** When the operator last edited the caller through the API; an automatic close leaves it alone. */
  updatedAt: number | null;
  autoClosedAt: number | null;
  statusBeforeClose: S | null;
}

export interface CallerScopeUse {
  quietDays: number;
  /** Start of the caller's last UTC day with served work in this plan's scope, if it ever had one. */
  lastUse: number | undefined;
}

export type CallerClosure<S extends string> =
  | { kind: 'close'; key: string; statusBeforeClose: S }
  // Back to the status it had when it closed ('unknown' if that was never kept).
  | { kind: 'reopen'; key: string; status: S | 'unknown' }
  // The caller came back after the operator took over from an automatic close: the operator's status stays.
  | { kind: 'forget-close'; key: string };

/** The caller's last use across the plans whose scope it used, and the quiet days the largest of them asks. */
function summarizeUse(uses: readonly CallerScopeUse[]): { lastUse: number; quietDays: number } | null {
  const used = uses.filter((u): u is { quietDays: number; lastUse: number } => u.lastUse !== undefined);
  if (used.length === 0) return null;
  return { lastUse: Math.max(...used.map((u) => u.lastUse)), quietDays: Math.max(...used.map((u) => u.quietDays)) };
}

function closureOf<S extends string>(caller: ClosableCaller<S>, uses: readonly CallerScopeUse[], now: number): CallerClosure<S> | null {
  const use = summarizeUse(uses);
  if (use === null) return null;
  if (caller.autoClosedAt === null) {
    // A day row covers the whole day: the caller counts as active until that day ends.
    const quiet = use.lastUse + DAY_MS + use.quietDays * DAY_MS <= now;
    return quiet && caller.status !== 'done' ? { kind: 'close', key: caller.key, statusBeforeClose: caller.status } : null;
  }
  // Day rows: served work on the close's own day or later came after the close, which needed quiet days before it.
  const cameBack = use.lastUse >= Math.floor(caller.autoClosedAt / DAY_MS) * DAY_MS;
  if (!cameBack) return null;
  const operatorTookOver = caller.status !== 'done' || (caller.updatedAt !== null && caller.updatedAt > caller.autoClosedAt);
  if (operatorTookOver) return { kind: 'forget-close', key: caller.key };
  return { kind: 'reopen', key: caller.key, status: caller.statusBeforeClose ?? 'unknown' };
}

/**
 * What changes at `now` for each caller, given its use of every active plan's scope; callers with
 * nothing to change are left out.
 */
export function computeCallerClosures<S extends string>(callers: readonly ClosableCaller<S>[], usesOf: (key: string) => readonly CallerScopeUse[], now: number): CallerClosure<S>[] {
  return callers.flatMap((caller) => closureOf(caller, usesOf(caller.key), now) ?? []);
}
