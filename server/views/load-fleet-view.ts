import { computeFleetDrift, type FleetDrift } from '../analysis/compute-fleet-drift.js';
import type { ProbeRecord } from '../store/insert-probe.js';
import { listLatestProbes } from '../store/list-latest-probes.js';
import type { Db } from '../store/open-database.js';

export interface FleetView extends FleetDrift {
  /** The latest check of each node, beside its drift flags. */
  probes: ProbeRecord[];
  checkedAt: number | null;
}

/** Every node's latest check, compared: is the fleet uniform, and who is down? */
export function loadFleetView(db: Db): FleetView {
  const probes = listLatestProbes(db);
  const drift = computeFleetDrift(probes.map((p) => ({ node: p.node, state: p.state, supportedVersions: p.supportedVersions })));
  return { ...drift, probes, checkedAt: probes.length === 0 ? null : Math.max(...probes.map((p) => p.at)) };
}
