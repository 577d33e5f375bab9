import { lt } from 'drizzle-orm';
import { BUCKET_MS } from '../../lib/time-bucket.js';
import type { Db } from './open-database.js';
import { callerPeopleDayTable, claimedClientDayTable, trafficHourTable, trafficMinuteTable } from './schema/index.js';
import type { TrafficRetention } from '../records/traffic-retention.js';

/** Deletes minute, hour, people and claimed-client rows past retention (claims as hours); day rows are kept forever. Answers rows deleted. */
export function deleteExpiredTraffic(db: Db, now: number, retention: TrafficRetention): number {
  const minutes = db.delete(trafficMinuteTable).where(lt(trafficMinuteTable.bucketStart, now - retention.minuteDays * BUCKET_MS.day)).run();
  const hours = db.delete(trafficHourTable).where(lt(trafficHourTable.bucketStart, now - retention.hourDays * BUCKET_MS.day)).run();
  const people = db.delete(callerPeopleDayTable).where(lt(callerPeopleDayTable.day, now - (retention.peopleDays ?? retention.hourDays) * BUCKET_MS.day)).run();
  const claims = db.delete(claimedClientDayTable).where(lt(claimedClientDayTable.day, now - retention.hourDays * BUCKET_MS.day)).run();
  return minutes.changes + hours.changes + people.changes + claims.changes;
}
