import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compilePolicy } from '../../server/policy/compile-policy.js';
import { imfFixdate } from '../../server/policy/announce-headers.js';

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** RFC 9110 §5.6.7: day-name "," SP day SP month SP year SP hour ":" minute ":" second SP "GMT". */
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
/** RFC 9651 §3.3.7 (as RFC 9745 uses it): "@" then an integer of at most 15 digits. */
const SF_DATE = /^@(-?\d{1,15})$/;

/**
 * An IMF-fixdate read by its grammar, not by Date.parse (which reads a year such as 0050 as 1950);
 * the day name must be the date's own weekday.
 */
function readImfFixdate(value: string): number {
  const match = IMF_FIXDATE.exec(value);
  if (match === null) throw new Error(`not an IMF-fixdate: ${value}`);
  const [, dayName, day, month, year, hour, minute, second] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), MONTHS.indexOf(month!), Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), 0);
  if (date.getUTCDate() !== Number(day)) throw new Error(`no such day: ${value}`);
  if (DAY_NAMES[date.getUTCDay()] !== dayName) throw new Error(`wrong day name: ${value}`);
  return date.getTime();
}

/** Any calendar day a plan may carry (YYYY-MM-DD, years 0000 to 9999). */
const planDay = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const midnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

function pairs(headers: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i < headers.length; i += 2) map.set(headers[i]!, headers[i + 1]!);
  return map;
}

describe('announcement headers', () => {
  test('for any plan dates the headers say exactly the plan\'s dates and policy, in their standard grammars', () => {
    fc.assert(
      fc.property(fc.uniqueArray(planDay, { minLength: 2, maxLength: 2 }), fc.webUrl(), fc.integer({ min: 0, max: 86_399_999 }), ([a, b], url, into) => {
        const [announceDate, retireDate] = [a!, b!].sort();
        const policy = compilePolicy(
          {
            version: 1,
            plans: [{
              id: 1, name: 'p', scope: { kind: 'era', value: 'legacy' }, action: 'warn', announceDate: announceDate!, retireDate: retireDate!,
              blockNewCallersFrom: null, gate: null, policyUrl: url, brownouts: [], exemptions: [], cutFrom: midnight(retireDate!), knownCallers: new Set(),
            }],
            supportedVersions: [],
          },
          0,
        );
        const now = midnight(announceDate!) + into;
        const headers = pairs(policy.decide({ era: 'legacy', transport: 'streamable-http', version: '2025-06-18' }, 'anonymous', now).headers);
        expect([...headers.keys()]).toEqual(['Deprecation', 'Sunset', 'Link']);

        const deprecation = SF_DATE.exec(headers.get('Deprecation')!);
        expect(deprecation).not.toBeNull();
        expect(Number(deprecation![1]) * 1000).toBe(midnight(announceDate!));

        expect(headers.get('Sunset')).toMatch(IMF_FIXDATE);
        expect(readImfFixdate(headers.get('Sunset')!)).toBe(midnight(retireDate!));

        expect(headers.get('Link')).toBe(`<${url}>; rel="sunset"`);
      }),
      { numRuns: 500 },
    );
  });

  test('an IMF-fixdate reads back to its instant to the second, for any instant of years 0000 to 9999', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        const seconds = Math.floor(date.getTime() / 1000) * 1000;
        expect(readImfFixdate(imfFixdate(seconds))).toBe(seconds);
      }),
    );
  });
});
