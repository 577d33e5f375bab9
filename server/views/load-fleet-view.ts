import { computeFleetDrift, type FleetDrift } from '../analysis/compute-fleet-drift.js';
import { computeSidecarStates, type SidecarState } from '../analysis/compute-sidecar-states.js';
import type { ProbeRecord } from '../store/records/probe-record.js';
import type { Store } from '../store/store.js';

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
export async function loadFleetView(store: Store, now: number): Promise<FleetView> {
  const probes = await store.listLatestProbes();
  const drift = computeFleetDrift(probes.map((p) => ({ node: p.node, state: p.state, supportedVersions: p.supportedVersions })));
  const policy = await store.getPolicyVersionChange();
  const sidecars = computeSidecarStates(await store.listSidecarNodes(), policy, now);
  return { ...drift, probes, checkedAt: probes.length === 0 ? null : Math.max(...probes.map((p) => p.at)), policyVersion: policy.version, sidecars };
}
