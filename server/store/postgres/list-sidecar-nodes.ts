import type { SidecarNodeRecord } from '../records/sidecar-node-record.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { sidecarNodesTable } from './schema/index.js';

/** Every node that has flushed to this store, in node order. */
export async function listSidecarNodes(db: PgDb): Promise<SidecarNodeRecord[]> {
  return db.select().from(sidecarNodesTable).orderBy(binaryOrder(sidecarNodesTable.node));
}
