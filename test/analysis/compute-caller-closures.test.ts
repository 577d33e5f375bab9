import { describe, expect, test } from 'vitest';
import { computeCallerClosures, type ClosableCaller } from '../../server/analysis/compute-caller-closures.js';
import { DAY_MS } from '../../server/analysis/compute-week-start.js';

type Status = 'unknown' | 'contacted' | 'done';
const LAST_DAY = Date.UTC(2026, 11, 1);
/** The first instant a caller last served on LAST_DAY is 30 days quiet: that day ended, then 30 more. */
const QUIET_AT = LAST_DAY + 31 * DAY_MS;

const caller = (overrides: Partial<ClosableCaller<Status>> = {}): ClosableCaller<Status> => ({ key: 'tok_a', status: 'contacted', updatedAt: null, autoClosedAt: null, statusBeforeClose: null, ...overrides });
const closures = (c: ClosableCaller<Status>, uses: { quietDays: number; lastUse: number | undefined }[], now: number) => computeCallerClosures([c], () => uses, now);

describe('computeCallerClosures', () => {
  test('closes at the first instant of the quiet days after the last day of use, not a millisecond before', () => {
    const uses = [{ quietDays: 30, lastUse: LAST_DAY }];
    expect(closures(caller(), uses, QUIET_AT - 1)).toEqual([]);
    expect(closures(caller(), uses, QUIET_AT)).toEqual([{ kind: 'close', key: 'tok_a', statusBeforeClose: 'contacted' }]);
  });

  test('the largest quiet days among the plans the caller used applies; unused plans do not count', () => {
    expect(closures(caller(), [{ quietDays: 30, lastUse: LAST_DAY }, { quietDays: 60, lastUse: LAST_DAY - DAY_MS }], QUIET_AT)).toEqual([]);
    expect(closures(caller(), [{ quietDays: 30, lastUse: LAST_DAY }, { quietDays: 60, lastUse: undefined }], QUIET_AT)).toHaveLength(1);
  });

  test('a caller never used in any scope is left alone', () => {
    expect(closures(caller(), [{ quietDays: 30, lastUse: undefined }], QUIET_AT + 365 * DAY_MS)).toEqual([]);
    expect(closures(caller(), [], QUIET_AT)).toEqual([]);
  });

  test('comes back on use from the day of the close on, to the status it had, or unknown if none was kept', () => {
    const closed = caller({ status: 'done', autoClosedAt: QUIET_AT + 3_600_000, statusBeforeClose: 'contacted' });
    expect(closures(closed, [{ quietDays: 30, lastUse: QUIET_AT - DAY_MS }], QUIET_AT + 2 * DAY_MS)).toEqual([]);
    expect(closures(closed, [{ quietDays: 30, lastUse: QUIET_AT }], QUIET_AT + 2 * DAY_MS)).toEqual([{ kind: 'reopen', key: 'tok_a', status: 'contacted' }]);
    expect(closures({ ...closed, statusBeforeClose: null }, [{ quietDays: 30, lastUse: QUIET_AT }], QUIET_AT + 2 * DAY_MS)).toEqual([{ kind: 'reopen', key: 'tok_a', status: 'unknown' }]);
  });

  test('an operator edit after the close keeps its status when the caller comes back', () => {
    const closedAt = QUIET_AT + 3_600_000;
    const back = [{ quietDays: 30, lastUse: QUIET_AT + DAY_MS }];
    expect(closures(caller({ status: 'done', autoClosedAt: closedAt, statusBeforeClose: 'contacted', updatedAt: closedAt - 1 }), back, QUIET_AT + 2 * DAY_MS)).toEqual([{ kind: 'reopen', key: 'tok_a', status: 'contacted' }]);
    expect(closures(caller({ status: 'done', autoClosedAt: closedAt, statusBeforeClose: 'contacted', updatedAt: closedAt + 1 }), back, QUIET_AT + 2 * DAY_MS)).toEqual([{ kind: 'forget-close', key: 'tok_a' }]);
    expect(closures(caller({ status: 'unknown', autoClosedAt: closedAt, statusBeforeClose: 'contacted', updatedAt: closedAt + 1 }), back, QUIET_AT + 2 * DAY_MS)).toEqual([{ kind: 'forget-close', key: 'tok_a' }]);
  });
});
