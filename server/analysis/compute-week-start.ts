/**
 * ISO-week arithmetic on UTC epoch milliseconds. Pure.
 * Invariant: a week starts on Monday 00:00 UTC, so `computeWeekStart(at) <= at < computeWeekStart(at) + WEEK_MS`.
 */
import { BUCKET_MS, bucketStart } from '../lib/time-bucket.js';

export const DAY_MS = BUCKET_MS.day;
export const WEEK_MS = 7 * DAY_MS;

/** The start of the ISO week (Monday 00:00 UTC) containing `at`. */
export function computeWeekStart(at: number): number {
  const day = bucketStart(at, 'day');
  // Epoch day 0 (1970-01-01) was a Thursday, three days after a Monday.
  const daysSinceMonday = (((day / DAY_MS + 3) % 7) + 7) % 7;
  return day - daysSinceMonday * DAY_MS;
}
