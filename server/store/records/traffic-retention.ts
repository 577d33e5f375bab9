/** How long minute and hour traffic rows, and the people behind callers, are kept; day rows are kept forever. */
export interface TrafficRetention {
  minuteDays: number;
  hourDays: number;
  /** Days a person's daily rows are kept (keyed digests, never the subject); absent: as long as hour rows. */
  peopleDays?: number;
}
