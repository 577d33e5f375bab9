import { lt } from 'drizzle-orm';
import type { TrafficRetention } from '../records/traffic-retention.js';
import type { PgDb } from './pg-db.js';
import { trafficHourTable, trafficMinuteTable } from './schema/index.js';

const DAY_MS = 86_400_000;

/** Deletes minute and hour rows past retention; day rows are kept forever. Answers rows deleted. */
export async function deleteExpiredTraffic(db: PgDb, now: number, retention: TrafficRetention): Promise<number> {
  const minutes = await db.delete(trafficMinuteTable).where(lt(trafficMinuteTable.bucketStart, now - retention.minuteDays * DAY_MS));
  const hours = await db.delete(trafficHourTable).where(lt(trafficHourTable.bucketStart, now - retention.hourDays * DAY_MS));
  return (minutes.rowCount ?? 0) + (hours.rowCount ?? 0);
}
