import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { generateBrownouts, isTimeZone, localTimeToInstant } from '../../server/analysis/generate-brownouts.js';

const HOUR = 3_600_000;
const iso = (at: number) => new Date(at).toISOString();

describe('localTimeToInstant', () => {
  test.each([
    ['2027-01-12', '14:00', 'UTC', '2027-01-12T14:00:00.000Z'],
    ['2027-01-12', '14:00', 'Europe/Berlin', '2027-01-12T13:00:00.000Z'],
    ['2027-07-12', '14:00', 'Europe/Berlin', '2027-07-12T12:00:00.000Z'],
    ['2027-03-14', '09:30', 'America/New_York', '2027-03-14T13:30:00.000Z'],
    ['2027-03-13', '09:30', 'America/New_York', '2027-03-13T14:30:00.000Z'],
    ['2027-06-01', '00:00', 'Asia/Kolkata', '2027-05-31T18:30:00.000Z'],
    ['2027-06-01', '23:45', 'Pacific/Chatham', '2027-06-01T11:00:00.000Z'],
  ])('%s %s in %s is %s', (date, time, zone, expected) => {
    expect(iso(localTimeToInstant(date, time, zone))).toBe(expected);
  });

  test('a time the spring-forward skips lands after the gap; a time the autumn repeats is its first occurrence', () => {
    // Europe/Berlin: 2027-03-28 02:00 → 03:00; 2027-10-31 03:00 → 02:00.
    expect(iso(localTimeToInstant('2027-03-28', '02:30', 'Europe/Berlin'))).toBe('2027-03-28T01:30:00.000Z');
    expect(iso(localTimeToInstant('2027-10-31', '02:30', 'Europe/Berlin'))).toBe('2027-10-31T00:30:00.000Z');
  });

  test('any wall time a zone shows converts back to an instant showing it, the first that does', () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Pacific/Chatham'];
    const wallOf = (at: number, zone: string) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2026, 0, 1) / 60_000, max: Date.UTC(2030, 0, 1) / 60_000 }), fc.constantFrom(...zones), (minute, zone) => {
        const at = minute * 60_000;
        const [date, time] = wallOf(at, zone).split(' ') as [string, string];
        const back = localTimeToInstant(date, time, zone);
        return wallOf(back, zone) === `${date} ${time}` && back <= at;
      }),
      { numRuns: 2000 },
    );
  });

  test('knows the zones the runtime knows', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('generateBrownouts', () => {
  test('1 h, 4 h, 12 h and 24 h a week apart at 14:00 Berlin keep the local hour across the change to summer time', () => {
    const { windows, overlapsAt } = generateBrownouts({ firstDate: '2027-03-16', startTime: '14:00', timeZone: 'Europe/Berlin', durationsMs: [1, 4, 12, 24].map((h) => h * HOUR), everyDays: 7 });
    expect(overlapsAt).toBeNull();
    expect(windows.map((w) => [iso(w.startsAt), (w.endsAt - w.startsAt) / HOUR])).toEqual([
      ['2027-03-16T13:00:00.000Z', 1],
      ['2027-03-23T13:00:00.000Z', 4],
      ['2027-03-30T12:00:00.000Z', 12],
      ['2027-04-06T12:00:00.000Z', 24],
    ]);
  });

  test('names the first window that runs into the next', () => {
    expect(generateBrownouts({ firstDate: '2027-01-01', startTime: '00:00', timeZone: 'UTC', durationsMs: [HOUR, 25 * HOUR, HOUR], everyDays: 1 }).overlapsAt).toBe(1);
    expect(generateBrownouts({ firstDate: '2027-01-01', startTime: '00:00', timeZone: 'UTC', durationsMs: [24 * HOUR, 24 * HOUR], everyDays: 1 }).overlapsAt).toBeNull();
  });
});
