import type { ProbeInsert, ProbeRecord } from '../records/probe-record.js';
import type { PgDb } from './pg-db.js';
import { probesTable } from './schema/index.js';

export async function insertProbe(db: PgDb, probe: ProbeInsert): Promise<ProbeRecord> {
  const [row] = await db.insert(probesTable).values(probe).returning();
  return row!;
}
