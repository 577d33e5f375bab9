/** How long minute and hour traffic rows are kept; day rows are kept forever. */
export interface TrafficRetention {
  minuteDays: number;
  hourDays: number;
}
