import type { SidecarKind } from '../../tally/tally-cell.js';

/** A sidecar writing to the store, as its latest flush left it. */
export interface SidecarNodeRecord {
  /** The configured node name. */
  node: string;
  kind: SidecarKind;
  firstSeen: number;
  lastFlushAt: number;
  /** The stored policy version its compiled policy came from at that flush. */
  policyVersion: number;
  startedAt: number;
}
