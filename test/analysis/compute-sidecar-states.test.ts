import { describe, expect, test } from 'vitest';
import { computeSidecarStates, POLICY_GRACE_MS, STALE_AFTER_MS, type SidecarHeartbeatRow, type StoredPolicyVersion } from '../../server/analysis/compute-sidecar-states.js';

const NOW = Date.UTC(2027, 0, 15, 12, 0);
const CHANGED_AT = NOW - 30 * 60_000;

function row(overrides: Partial<SidecarHeartbeatRow> = {}): SidecarHeartbeatRow {
  return { node: 'edge-1', kind: 'serve', lastFlushAt: NOW - 1_000, policyVersion: 4, ...overrides };
}

const judge = (r: SidecarHeartbeatRow, policy: StoredPolicyVersion = { version: 4, changedAt: CHANGED_AT }) => computeSidecarStates([r], policy, NOW)[0]!;

describe('computeSidecarStates', () => {
  test('a node that flushed a moment ago under the stored version is neither stale nor lagging', () => {
    expect(judge(row())).toEqual({ ...row(), stale: false, lagging: false });
  });

  test.each<[string, number, boolean]>([
    ['flushed just under five minutes ago', NOW - STALE_AFTER_MS + 1, false],
    ['flushed exactly five minutes ago', NOW - STALE_AFTER_MS, true],
    ['flushed an hour ago', NOW - 3_600_000, true],
  ])('stale: %s → %s', (_name, lastFlushAt, stale) => {
    expect(judge(row({ lastFlushAt })).stale).toBe(stale);
  });

  test.each<[string, Partial<SidecarHeartbeatRow>, boolean]>([
    ['behind, and flushed more than a minute after the change', { policyVersion: 3, lastFlushAt: CHANGED_AT + POLICY_GRACE_MS + 1 }, true],
    ['behind, but flushed exactly a minute after the change', { policyVersion: 3, lastFlushAt: CHANGED_AT + POLICY_GRACE_MS }, false],
    ['behind, last flushed before the change', { policyVersion: 3, lastFlushAt: CHANGED_AT - 1 }, false],
    ['on the stored version', { policyVersion: 4, lastFlushAt: NOW }, false],
    ['the in-process middleware, which enforces like a sidecar, behind', { kind: 'middleware', policyVersion: 3, lastFlushAt: NOW }, true],
    ['the in-process middleware on the stored version', { kind: 'middleware', policyVersion: 4, lastFlushAt: NOW }, false],
    ['ahead of this reader (it read the store after the change)', { policyVersion: 5, lastFlushAt: NOW }, false],
  ])('lagging: %s → %s', (_name, overrides, lagging) => {
    expect(judge(row(overrides)).lagging).toBe(lagging);
  });

  test('without the time of the change nobody is blamed', () => {
    expect(judge(row({ policyVersion: 1 }), { version: 4, changedAt: null }).lagging).toBe(false);
  });

  test('a node can be stale and lagging at once, and each node is judged on its own', () => {
    const states = computeSidecarStates(
      [row({ node: 'a', policyVersion: 2, lastFlushAt: CHANGED_AT + 2 * POLICY_GRACE_MS }), row({ node: 'b' })],
      { version: 4, changedAt: CHANGED_AT },
      NOW,
    );
    expect(states.map((s) => [s.node, s.stale, s.lagging])).toEqual([
      ['a', true, true],
      ['b', false, false],
    ]);
  });
});
