import { sql } from 'drizzle-orm';
import type { NodeHeartbeat } from '../tally/tally-cell.js';
import type { SidecarNodeRecord } from './records/sidecar-node-record.js';

/** A node's row as a heartbeat writes it, as a plain object type: a prepared statement takes it as its named parameters. */
export type HeartbeatValues = { [K in keyof SidecarNodeRecord]: SidecarNodeRecord[K] };

/** The row a heartbeat inserts: a node first seen at the flush that first reports it. */
export function heartbeatValues(heartbeat: NodeHeartbeat): HeartbeatValues {
  return { node: heartbeat.node, kind: heartbeat.kind, firstSeen: heartbeat.at, lastFlushAt: heartbeat.at, policyVersion: heartbeat.policyVersion, startedAt: heartbeat.startedAt };
}

/** What a heartbeat changes on its node's row when there is one: all but the first sighting, in SQL both dialects read alike. */
export const HEARTBEAT_UPDATE = {
  kind: sql`excluded.kind`,
  lastFlushAt: sql`excluded.last_flush_at`,
  policyVersion: sql`excluded.policy_version`,
  startedAt: sql`excluded.started_at`,
};
