import type { SidecarNodeRecord } from '../sqlite/list-sidecar-nodes.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { sidecarNodesTable } from './schema/index.js';

/** Every node that has flushed to this store, in node order. */
export async function listSidecarNodes(db: PgDb): Promise<SidecarNodeRecord[]> {
  return db.select().from(sidecarNodesTable).orderBy(binaryOrder(sidecarNodesTable.node));
}
