/** The IPC vocabulary between the bench drivers and their server children. */

/**
 * `proxy-unmetered`, `proxy-classified` and `proxy-unrecorded` are the sidecar's reverse proxy with
 * parts of the metering taken away; bench/ledger/breakdown.ts and bench/ledger/ledger.ts use them to split the
 * sidecar's cost.
 * `sidecar-deny-out` and `sidecar-warn-in` are the full sidecar with one retirement plan (see
 * bench-plans.ts); bench/policy/policy.ts compares them with the plain sidecar.
 * `bare-undici` is the bare proxy with undici's pool on the upstream leg; bench/proxy/forwarders.ts
 * compares it with `bare`.
 * `sdk-dual` and `sdk-modern` are the v2 SDK's own server (sdk-server.ts), serving 2025-era
 * requests or rejecting them; `sidecar-bridge` is the sidecar as `serve --bridge` runs it.
 * bench/bridge/bridge.ts compares a legacy client's latency through them.
 */
export type ServerKind =
  | 'upstream'
  | 'bare'
  | 'bare-undici'
  | 'sidecar'
  | 'sidecar-bridge'
  | 'sidecar-deny-out'
  | 'sidecar-warn-in'
  | 'proxy-unmetered'
  | 'proxy-classified'
  | 'proxy-unrecorded'
  | 'sdk-dual'
  | 'sdk-modern';

export type ChildRequest = { type: 'stats' } | { type: 'stop' };

export interface ChildStats {
  /** User + system CPU time the child has used so far, in microseconds. */
  cpuMicros: number;
  /** Time its main thread has spent paused for garbage collection so far, in microseconds. */
  gcMicros: number;
  /** The sidecar's metering health; empty for the other servers. */
  health: Record<string, unknown>;
}

export type ChildReply = { type: 'ready'; url: string } | ({ type: 'stats' } & ChildStats);
