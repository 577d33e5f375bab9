import { computeFleetDrift, type FleetDrift } from '../analysis/compute-fleet-drift.js';
import { computeSidecarStates, type SidecarState } from '../analysis/compute-sidecar-states.js';
import type { ProbeRecord } from '../store/sqlite/insert-probe.js';
import { listLatestProbes } from '../store/sqlite/list-latest-probes.js';
import { listSidecarNodes } from '../store/sqlite/list-sidecar-nodes.js';
import type { Db } from '../store/sqlite/open-database.js';
import { getPolicyVersionChange } from '../store/sqlite/policy-version.js';

export interface FleetView extends FleetDrift {
  /** The latest check of each node, beside its drift flags. */
  probes: ProbeRecord[];
  checkedAt: number | null;
  /** The stored policy version every sidecar should run. */
  policyVersion: number;
  /** The sidecars writing to this store, from their flush heartbeats. */
  sidecars: SidecarState[];
}

/** Every node's latest check, compared: is the fleet uniform, and who is down? And every sidecar's last flush. */
export function loadFleetView(db: Db, now: number): FleetView {
  const probes = listLatestProbes(db);
  const drift = computeFleetDrift(probes.map((p) => ({ node: p.node, state: p.state, supportedVersions: p.supportedVersions })));
  const policy = getPolicyVersionChange(db);
  const sidecars = computeSidecarStates(listSidecarNodes(db), policy, now);
  return { ...drift, probes, checkedAt: probes.length === 0 ? null : Math.max(...probes.map((p) => p.at)), policyVersion: policy.version, sidecars };
}
