import type { Db } from './open-database.js';
import { probesTable } from './schema/index.js';

export type ProbeRecord = typeof probesTable.$inferSelect;
export type ProbeInsert = typeof probesTable.$inferInsert;

export function insertProbe(db: Db, probe: ProbeInsert): ProbeRecord {
  return db.insert(probesTable).values(probe).returning().get();
}
