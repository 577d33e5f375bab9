import type { Db } from './open-database.js';
import { sidecarNodesTable } from './schema/index.js';

export type SidecarNodeRecord = typeof sidecarNodesTable.$inferSelect;

/** Every node that has flushed to this store, in node order. */
export function listSidecarNodes(db: Db): SidecarNodeRecord[] {
  return db.select().from(sidecarNodesTable).orderBy(sidecarNodesTable.node).all();
}
