/**
 * Is the fleet uniform? Pure. Nodes of one logical server must serve the same set of protocol
 * versions; a half-rolled change answers one request with a result and the next with -32022.
 * Invariant: only nodes whose latest check is ready are compared; the others are listed as down.
 */

export interface FleetNodeCheck {
  node: string;
  state: string;
  supportedVersions: readonly string[];
}

export interface FleetNodeDrift {
  node: string;
  /** The node's versions, sorted. */
  versions: string[];
  /** Ready, but serving a different set from the fleet's usual one. */
  differs: boolean;
  /** Not ready at its latest check (unavailable, incompatible or auth-required). */
  down: boolean;
}

export interface FleetDrift {
  /** The set most ready nodes serve (ties: the lexically first), or null with no ready node. */
  expected: string[] | null;
  /** True when ready nodes serve different sets. */
  drift: boolean;
  nodes: FleetNodeDrift[];
  down: string[];
}

function keyOf(versions: readonly string[]): string {
  return [...new Set(versions)].sort().join(' ');
}

/** Compares the latest check of every node. */
export function computeFleetDrift(checks: readonly FleetNodeCheck[]): FleetDrift {
  const ready = checks.filter((c) => c.state === 'ready');
  const tally = new Map<string, number>();
  for (const check of ready) tally.set(keyOf(check.supportedVersions), (tally.get(keyOf(check.supportedVersions)) ?? 0) + 1);
  const [expectedKey] = [...tally].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? [];
  const nodes = checks.map((check) => ({
    node: check.node,
    versions: [...new Set(check.supportedVersions)].sort(),
    differs: check.state === 'ready' && keyOf(check.supportedVersions) !== expectedKey,
    down: check.state !== 'ready',
  }));
  return {
    expected: expectedKey === undefined ? null : expectedKey === '' ? [] : expectedKey.split(' '),
    drift: tally.size > 1,
    nodes,
    down: nodes.filter((n) => n.down).map((n) => n.node),
  };
}
