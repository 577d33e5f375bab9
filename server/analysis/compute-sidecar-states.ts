/**
 * Which sidecars writing to the store are quiet, and which still run an old policy. Pure.
 * A node flushes every second and writes a heartbeat at least every 15 s when idle, so five
 * minutes of silence means it is gone or cannot write; a node that picks up a policy change checks
 * the store every second, so one still flushing an older version a minute after the change did
 * not pick it up.
 */

/** No flush for this long: the node is stale. */
export const STALE_AFTER_MS = 5 * 60_000;

/** How long after a policy change a node may still flush under the version before it. */
export const POLICY_GRACE_MS = 60_000;

export interface SidecarHeartbeatRow {
  node: string;
  kind: string;
  lastFlushAt: number;
  policyVersion: number;
}

export interface StoredPolicyVersion {
  version: number;
  /** When the version last moved; null when unknown. */
  changedAt: number | null;
}

export interface SidecarState extends SidecarHeartbeatRow {
  stale: boolean;
  /** Behind the stored policy version, in a flush made more than the grace period after the change. */
  lagging: boolean;
}

export function computeSidecarStates(rows: readonly SidecarHeartbeatRow[], policy: StoredPolicyVersion, now: number): SidecarState[] {
  return rows.map((row) => ({
    ...row,
    stale: now - row.lastFlushAt >= STALE_AFTER_MS,
    // Without the time of the change, "a minute after it" cannot be judged, and no node is blamed.
    // The in-process middleware enforces too, so it is judged like any sidecar.
    lagging: row.policyVersion < policy.version && policy.changedAt !== null && row.lastFlushAt - policy.changedAt > POLICY_GRACE_MS,
  }));
}
