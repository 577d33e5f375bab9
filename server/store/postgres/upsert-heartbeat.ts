import type { NodeHeartbeat } from '../../tally/tally-cell.js';
import { HEARTBEAT_UPDATE, heartbeatValues } from '../heartbeat-values.js';
import type { PgDb } from './pg-db.js';
import { sidecarNodesTable } from './schema/index.js';

/** Records that a node flushed, under which policy version; its first sighting stays. */
export async function upsertHeartbeat(db: PgDb, heartbeat: NodeHeartbeat): Promise<void> {
  await db.insert(sidecarNodesTable).values(heartbeatValues(heartbeat)).onConflictDoUpdate({ target: sidecarNodesTable.node, set: HEARTBEAT_UPDATE });
}
