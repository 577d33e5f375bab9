import { lt } from 'drizzle-orm';
import { BUCKET_MS } from '../../lib/time-bucket.js';
import type { TrafficRetention } from '../records/traffic-retention.js';
import type { PgDb } from './pg-db.js';
import { callerPeopleDayTable, claimedClientDayTable, trafficHourTable, trafficMinuteTable } from './schema/index.js';

/** Deletes minute, hour, people and claimed-client rows past retention (claims as hours); day rows are kept forever. Answers rows deleted. */
export async function deleteExpiredTraffic(db: PgDb, now: number, retention: TrafficRetention): Promise<number> {
  const minutes = await db.delete(trafficMinuteTable).where(lt(trafficMinuteTable.bucketStart, now - retention.minuteDays * BUCKET_MS.day));
  const hours = await db.delete(trafficHourTable).where(lt(trafficHourTable.bucketStart, now - retention.hourDays * BUCKET_MS.day));
  const people = await db.delete(callerPeopleDayTable).where(lt(callerPeopleDayTable.day, now - (retention.peopleDays ?? retention.hourDays) * BUCKET_MS.day));
  const claims = await db.delete(claimedClientDayTable).where(lt(claimedClientDayTable.day, now - retention.hourDays * BUCKET_MS.day));
  return (minutes.rowCount ?? 0) + (hours.rowCount ?? 0) + (people.rowCount ?? 0) + (claims.rowCount ?? 0);
}
