import { randomUUID } from 'node:crypto';
import type { Store } from '../../server/store/store.js';
import type { NodeHeartbeat, TallyBatch, TallyWrite } from '../../server/tally/tally-cell.js';

/**
 * Writes one batch through the store's exactly-once path, as a flush would: under a fresh stream of
 * its own, sequence 1, so every call lands. The stream's node is the heartbeat's, else the first
 * cell's.
 */
export function writeBatch(store: Store, batch: TallyBatch, heartbeat?: NodeHeartbeat): Promise<TallyWrite> {
  const node = heartbeat?.node ?? batch.cells[0]?.node ?? 'test-node';
  return store.writeTally([{ stream: randomUUID(), node, seq: 1, batch }], heartbeat?.at ?? Date.now(), heartbeat);
}
