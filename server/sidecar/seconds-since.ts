/** Seconds from `since` to now on a monotonic `clock` in milliseconds, never negative. */
export function secondsSince(since: number, clock: () => number): number {
  return Math.max(0, clock() - since) / 1000;
}
