import type { Era } from '../../protocol/vocabulary.js';

/** A check settles on one of these or on none (null); `unknown` is the tally's word, never a probe's. */
export const PROBED_ERAS = ['modern', 'legacy'] as const satisfies readonly Era[];

/** One fleet check of one node, so drift and outages can be seen over time. */
export interface ProbeRecord {
  id: number;
  /** The configured fleet node name. */
  node: string;
  /** Its endpoint URL or stdio:<command line>. */
  target: string;
  era: (typeof PROBED_ERAS)[number] | null;
  /** ready | unavailable | incompatible | auth-required */
  state: string;
  evidenceClass: string;
  evidenceCode: string;
  detail: string;
  version: string | null;
  /** Every version the node serves: modern ones from server/discover, legacy ones it accepted in initialize. */
  supportedVersions: string[];
  legacyAccepted: boolean | null;
  serverInfo: { name: string; version: string } | null;
  latencyMs: number;
  at: number;
}

type OptionalProbeField = 'era' | 'version' | 'legacyAccepted' | 'serverInfo';

/** A check to store: the id is the store's, and what the check did not settle may be left out. */
export type ProbeInsert = Omit<ProbeRecord, 'id' | OptionalProbeField> & Partial<Pick<ProbeRecord, OptionalProbeField>>;
