import type { Db } from './open-database.js';
import { sidecarNodesTable } from './schema/index.js';
import type { SidecarNodeRecord } from '../records/sidecar-node-record.js';

/** Every node that has flushed to this store, in node order. */
export function listSidecarNodes(db: Db): SidecarNodeRecord[] {
  return db.select().from(sidecarNodesTable).orderBy(sidecarNodesTable.node).all();
}
