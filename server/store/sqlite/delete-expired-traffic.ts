import { lt } from 'drizzle-orm';
import type { Db } from './open-database.js';
import { trafficHourTable, trafficMinuteTable } from './schema/index.js';
import type { TrafficRetention } from '../records/traffic-retention.js';

const DAY_MS = 86_400_000;

/** Deletes minute and hour rows past retention; day rows are kept forever. Answers rows deleted. */
export function deleteExpiredTraffic(db: Db, now: number, retention: TrafficRetention): number {
  const minutes = db.delete(trafficMinuteTable).where(lt(trafficMinuteTable.bucketStart, now - retention.minuteDays * DAY_MS)).run();
  const hours = db.delete(trafficHourTable).where(lt(trafficHourTable.bucketStart, now - retention.hourDays * DAY_MS)).run();
  return minutes.changes + hours.changes;
}
