import { describe, expect, test } from 'vitest';
import { IDLE_HEARTBEAT_EVERY_MS, idleHeartbeatDue } from '../../server/tally/idle-heartbeat-due.js';

const T0 = Date.UTC(2026, 10, 30, 12, 0);

describe('idleHeartbeatDue', () => {
  test('the first heartbeat is always due', () => {
    expect(idleHeartbeatDue(undefined, { at: T0, policyVersion: 0 })).toBe(true);
  });

  test.each<[string, number, boolean]>([
    ['a second later', 1_000, false],
    ['a millisecond short of 15 s', IDLE_HEARTBEAT_EVERY_MS - 1, false],
    ['15 s later', IDLE_HEARTBEAT_EVERY_MS, true],
    ['a minute later', 60_000, true],
    ['after the clock went back', -1_000, true],
  ])('under the same policy, %s → %s', (_name, after, due) => {
    expect(idleHeartbeatDue({ at: T0, policyVersion: 3 }, { at: T0 + after, policyVersion: 3 })).toBe(due);
  });

  test('a policy that moved is due at once, so the fleet sees the change taken up', () => {
    expect(idleHeartbeatDue({ at: T0, policyVersion: 3 }, { at: T0 + 1_000, policyVersion: 4 })).toBe(true);
  });
});
