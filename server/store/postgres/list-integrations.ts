import type { IntegrationRecord } from '../records/integration-record.js';
import { binaryOrder } from './binary-order.js';
import type { PgDb } from './pg-db.js';
import { integrationsTable } from './schema/index.js';

export async function listIntegrations(db: PgDb): Promise<IntegrationRecord[]> {
  return db.select().from(integrationsTable).orderBy(binaryOrder(integrationsTable.key));
}
