import type { Logger } from '../lib/create-logger.js';
import type { ProbeVerdict } from '../prober/verdict.js';
import type { ProbeRecord } from '../store/records/probe-record.js';
import type { Store } from '../store/store.js';
import { checkLegacyAcceptance, type LegacyAcceptance } from './check-legacy-acceptance.js';
import type { FleetHoldOffs } from './fleet-hold-offs.js';

export interface FleetNode {
  name: string;
  url: string;
}

export interface FleetCheckDeps {
  store: Store;
  now: () => number;
  nodes: readonly FleetNode[];
  timeoutMs: number;
  /** The era prober, downgrade-safe: it never initializes a modern node. */
  probeNode: (node: FleetNode) => Promise<ProbeVerdict>;
  /** Kept across checks: a node whose last answer carried Retry-After is skipped until that time. */
  holdOffs: FleetHoldOffs;
  logger: Logger;
}

/**
 * Every version the node serves: the modern ones server/discover advertises, plus the legacy one
 * a 2025 client would get. Either half alone misses the drift of a half-rolled "drop legacy".
 */
function servedVersions(verdict: ProbeVerdict, legacy: LegacyAcceptance | undefined): string[] {
  const versions = new Set<string>();
  if (verdict.era === 'modern') for (const v of verdict.supportedVersions ?? (verdict.version === null ? [] : [verdict.version])) versions.add(v);
  if (verdict.era === 'legacy' && verdict.version !== null) versions.add(verdict.version);
  if (legacy?.accepted && legacy.version !== null) versions.add(legacy.version);
  return [...versions].sort();
}

async function checkNode(deps: FleetCheckDeps, node: FleetNode): Promise<ProbeRecord> {
  const verdict = await deps.probeNode(node);
  deps.holdOffs.note(node.name, verdict, deps.now());
  // Only a node the prober could reach is asked about legacy; an outage answers nothing either way.
  const legacy = verdict.state === 'ready' && verdict.era === 'modern' ? await checkLegacyAcceptance(new URL(node.url), deps.timeoutMs) : undefined;
  return await deps.store.insertProbe({
    node: node.name,
    target: node.url,
    era: verdict.era,
    state: verdict.state,
    evidenceClass: verdict.evidence.class,
    evidenceCode: verdict.evidence.code,
    detail: legacy === undefined ? verdict.evidence.detail : `${verdict.evidence.detail}; ${legacy.detail}`,
    version: verdict.version,
    supportedVersions: servedVersions(verdict, legacy),
    legacyAccepted: verdict.era === 'legacy' ? true : legacy?.accepted ?? null,
    serverInfo: verdict.serverInfo,
    latencyMs: Math.round(verdict.latencyMs),
    at: deps.now(),
  });
}

/**
 * Checks every configured node now and stores the results; a node that fails to check is stored as
 * unavailable. A node still inside the Retry-After it last answered is not probed: its latest
 * record (which says so) stands, and nothing is stored for it.
 */
export async function runFleetCheck(deps: FleetCheckDeps): Promise<ProbeRecord[]> {
  const now = deps.now();
  const due = deps.nodes.filter((node) => {
    const until = deps.holdOffs.heldUntil(node.name, now);
    if (until !== undefined) deps.logger.info({ node: node.name, until: new Date(until).toISOString() }, 'fleet node asked to be left alone (Retry-After); not probed');
    return until === undefined;
  });
  const results = await Promise.allSettled(due.map((node) => checkNode(deps, node)));
  return Promise.all(results.map(async (result, i) => {
    if (result.status === 'fulfilled') return result.value;
    const node = due[i]!;
    deps.logger.warn({ err: result.reason, node: node.name }, 'fleet check failed');
    return await deps.store.insertProbe({
      node: node.name,
      target: node.url,
      era: null,
      state: 'unavailable',
      evidenceClass: 'STOP',
      evidenceCode: 'check-failed',
      detail: result.reason instanceof Error ? result.reason.message : String(result.reason),
      version: null,
      supportedVersions: [],
      legacyAccepted: null,
      serverInfo: null,
      latencyMs: 0,
      at: deps.now(),
    });
  }));
}
