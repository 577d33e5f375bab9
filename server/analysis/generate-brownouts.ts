/**
 * Brownout windows from an escalating schedule: the first on a local date at a local time of day
 * in a time zone, each next one `everyDays` local days later at the same local time (so a daylight
 * saving change keeps the hour people agreed on), each with its own length, usually longer than the
 * last. Pure: time-zone rules come from the runtime's Intl data, and the answer is plain windows.
 */
export interface BrownoutSchedule {
  /** The first window's local date, YYYY-MM-DD. */
  firstDate: string;
  /** When each window starts, local HH:MM. */
  startTime: string;
  /** An IANA time zone, e.g. Europe/Berlin, America/New_York or UTC. */
  timeZone: string;
  /** Each window's length, in order (ms). */
  durationsMs: readonly number[];
  /** Local days from one window's start to the next one's. */
  everyDays: number;
}

const DAY_MS = 86_400_000;

/** True when the runtime knows this time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** How far the zone's wall clock is ahead of UTC at this instant (ms). */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a local wall time names. A time that a clock change skips (02:30 on a spring-forward
 * night) lands the length of the gap later, as a wall clock moved forward shows it; one that occurs
 * twice (an autumn night) is its first occurrence.
 */
export function localTimeToInstant(date: string, time: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The zone's offset a day before and a day after: a wall time is one of the two (or both, or neither).
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const reads = (instant: number) => wall - offsetAt(instant, timeZone) === instant;
  if (reads(before) && reads(after)) return Math.min(before, after);
  if (reads(after)) return after;
  // Valid under the earlier offset, or skipped by the change: then the earlier offset puts it after the gap.
  return before;
}

/** The windows, in order; the first one that runs into the next is answered as `overlapsAt` (its index). */
export function generateBrownouts(schedule: BrownoutSchedule): { windows: { startsAt: number; endsAt: number }[]; overlapsAt: number | null } {
  const first = Date.parse(`${schedule.firstDate}T00:00:00Z`);
  const windows = schedule.durationsMs.map((duration, index) => {
    const date = new Date(first + index * schedule.everyDays * DAY_MS).toISOString().slice(0, 10);
    const startsAt = localTimeToInstant(date, schedule.startTime, schedule.timeZone);
    return { startsAt, endsAt: startsAt + duration };
  });
  const overlapsAt = windows.findIndex((window, index) => index + 1 < windows.length && window.endsAt > windows[index + 1]!.startsAt);
  return { windows, overlapsAt: overlapsAt === -1 ? null : overlapsAt };
}
