import { describe, expect, test } from 'vitest';
import { computeFleetDrift } from '../../server/analysis/compute-fleet-drift.js';

const node = (name: string, versions: string[], state = 'ready') => ({ node: name, state, supportedVersions: versions });

describe('computeFleetDrift', () => {
  test('a uniform fleet has no drift', () => {
    const drift = computeFleetDrift([node('a', ['2026-07-28', '2025-11-25']), node('b', ['2025-11-25', '2026-07-28'])]);
    expect(drift).toEqual({
      expected: ['2025-11-25', '2026-07-28'],
      drift: false,
      nodes: [
        { node: 'a', versions: ['2025-11-25', '2026-07-28'], differs: false, down: false },
        { node: 'b', versions: ['2025-11-25', '2026-07-28'], differs: false, down: false },
      ],
      down: [],
    });
  });

  test('a half-rolled fleet flags the nodes that differ from the majority', () => {
    const drift = computeFleetDrift([node('a', ['2026-07-28']), node('b', ['2026-07-28', '2025-11-25']), node('c', ['2026-07-28'])]);
    expect(drift.drift).toBe(true);
    expect(drift.expected).toEqual(['2026-07-28']);
    expect(drift.nodes.filter((n) => n.differs).map((n) => n.node)).toEqual(['b']);
  });

  test('nodes that are down are listed, not compared', () => {
    const drift = computeFleetDrift([node('a', ['2026-07-28']), node('b', [], 'unavailable')]);
    expect(drift.drift).toBe(false);
    expect(drift.down).toEqual(['b']);
    expect(drift.nodes[1]).toMatchObject({ down: true, differs: false });
  });

  test('a tie picks the lexically first set, so the answer does not depend on node order', () => {
    const one = computeFleetDrift([node('a', ['2026-07-28']), node('b', ['2025-11-25'])]);
    const other = computeFleetDrift([node('b', ['2025-11-25']), node('a', ['2026-07-28'])]);
    expect(one.expected).toEqual(['2025-11-25']);
    expect(other.expected).toEqual(['2025-11-25']);
  });

  test('no ready node: no expected set and no drift', () => {
    expect(computeFleetDrift([node('a', [], 'auth-required')])).toMatchObject({ expected: null, drift: false, down: ['a'] });
    expect(computeFleetDrift([])).toMatchObject({ expected: null, drift: false, nodes: [], down: [] });
  });
});
