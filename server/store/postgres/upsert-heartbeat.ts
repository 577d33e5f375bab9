import { sql } from 'drizzle-orm';
import type { NodeHeartbeat } from '../../tally/tally-cell.js';
import type { PgDb } from './pg-db.js';
import { sidecarNodesTable } from './schema/index.js';

/** Records that a node flushed, under which policy version; its first sighting stays. */
export async function upsertHeartbeat(db: PgDb, heartbeat: NodeHeartbeat): Promise<void> {
  const t = sidecarNodesTable;
  await db
    .insert(t)
    .values({ node: heartbeat.node, kind: heartbeat.kind, firstSeen: heartbeat.at, lastFlushAt: heartbeat.at, policyVersion: heartbeat.policyVersion, startedAt: heartbeat.startedAt })
    .onConflictDoUpdate({
      target: t.node,
      set: {
        kind: sql`excluded.kind`,
        lastFlushAt: sql`excluded.last_flush_at`,
        policyVersion: sql`excluded.policy_version`,
        startedAt: sql`excluded.started_at`,
      },
    });
}
