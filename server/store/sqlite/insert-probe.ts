import type { Db } from './open-database.js';
import { probesTable } from './schema/index.js';
import type { ProbeInsert, ProbeRecord } from '../records/probe-record.js';

export function insertProbe(db: Db, probe: ProbeInsert): ProbeRecord {
  return db.insert(probesTable).values(probe).returning().get();
}
