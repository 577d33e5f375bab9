import type { NodeHeartbeat } from './tally-cell.js';

/** An idle node writes its heartbeat this often: often enough to look alive, rarely enough to leave the store quiet. */
export const IDLE_HEARTBEAT_EVERY_MS = 15_000;

/**
 * Whether a flush with no counts should still write the node's heartbeat: when none was written
 * yet, when the policy in force moved since (the fleet should see a change taken up at once), or
 * when the last one is at least `everyMs` old (or stamped after `next`: the clock went back).
 * A flush with counts always carries one.
 */
export function idleHeartbeatDue(last: Pick<NodeHeartbeat, 'at' | 'policyVersion'> | undefined, next: Pick<NodeHeartbeat, 'at' | 'policyVersion'>, everyMs = IDLE_HEARTBEAT_EVERY_MS): boolean {
  if (last === undefined || last.policyVersion !== next.policyVersion) return true;
  return next.at - last.at >= everyMs || next.at < last.at;
}
