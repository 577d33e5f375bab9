/**
 * What a probe of one MCP server concludes. Pure types: the prober produces them, the CLI prints
 * them, the fleet check stores and compares them.
 */

export type ProbedEra = 'modern' | 'legacy';

/** ready: usable at `era`; unavailable: try again later; incompatible: no mutual version; auth-required: credentials first. */
export type VerdictState = 'ready' | 'unavailable' | 'incompatible' | 'auth-required';

/**
 * The class of the evidence behind a verdict: MOD positive modern evidence,
 * MOD-ERR a recognised modern rejection, STOP a failure that is not about eras, AMB ambiguous,
 * AMB* ambiguous but recognised legacy-only evidence, LEGACY a validated initialize result.
 */
export type EvidenceClass = 'MOD' | 'MOD-ERR' | 'STOP' | 'AMB' | 'AMB*' | 'LEGACY';

export interface Evidence {
  class: EvidenceClass;
  /** A stable machine-readable name of what was observed, e.g. `discover-result`, `legacy-prevalidation-400`, `stdio-timeout`. */
  code: string;
  /** What was seen, in words, with the status, code or body excerpt that decided it. */
  detail: string;
}

/** One JSON-RPC message the prober put on the wire, in order. */
export interface SentMessage {
  method: string;
  id: string | number | null;
}

export interface ProbeVerdict {
  /** The configured peer name. */
  peer: string;
  /** The peer's target as configured: an http(s) URL, or `stdio:<command line>`. */
  target: string;
  era: ProbedEra | null;
  state: VerdictState;
  evidence: Evidence;
  /** The protocol version chosen (modern: from `_meta`; legacy: the validated initialize result). */
  version: string | null;
  /** Versions the server advertised (DiscoverResult.supportedVersions, or -32022 data.supported), when it did. */
  supportedVersions: string[] | null;
  /** Self-reported; shown, never used to decide. */
  serverInfo: { name: string; version: string } | null;
  transport: 'stdio' | 'streamable-http' | 'http+sse';
  /** Every message sent during the probe, in order. */
  sent: SentMessage[];
  /** For a fail-closed verdict: the setting that would enable this peer, e.g. `allowLegacy`. */
  enableWith: string | null;
  /** Unavailable with a Retry-After (seconds or an HTTP-date, read against the probe's clock): how long the server asked us to wait. */
  retryAfterMs: number | null;
  /** Milliseconds from the first byte sent to the verdict. */
  latencyMs: number;
  /** When the verdict was reached, epoch ms. */
  at: number;
}
