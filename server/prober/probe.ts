/**
 * The prober's entry points: probe one peer or several, with backoff retries while a peer is
 * unavailable (each attempt starts again with `server/discover`), and optionally merge their tool
 * catalogues. Peers are probed concurrently; results come back in the order given.
 */
import { computeBackoffMs } from './compute-backoff.js';
import type { ToolListing } from './catalogue/collect-tools.js';
import { mergeCatalogues, type CatalogueResult, type CollisionPolicy } from './catalogue/merge-catalogues.js';
import { describeTarget, findPeerNameProblem, type PeerConfig } from './targets/peer-config.js';
import type { AttemptResult } from './attempt/probe-attempt.js';
import { probeOnce } from './attempt/probe-once.js';
import { resolveProbeOptions, type ProbeOptions, type ResolvedProbeOptions } from './probe-options.js';
import type { ProbeVerdict, SentMessage } from './verdict.js';

export interface PeerReport {
  verdict: ProbeVerdict;
  /** The peer's own tool list (sorted), when it is ready and advertises tools; null otherwise. */
  tools: ToolListing | null;
}

export interface CatalogueReport {
  peers: PeerReport[];
  /** The merged catalogue of the ready peers whose lists were read, or the collision that stopped it. */
  catalogue: CatalogueResult;
}

function checkPeers(peers: readonly PeerConfig[]): void {
  const seen = new Set<string>();
  for (const peer of peers) {
    const problem = findPeerNameProblem(peer.name);
    if (problem !== undefined) throw new TypeError(problem);
    if (seen.has(peer.name)) throw new TypeError(`two peers are named "${peer.name}"`);
    seen.add(peer.name);
    if (peer.target.kind === 'http') {
      const { protocol } = new URL(peer.target.url);
      if (protocol !== 'http:' && protocol !== 'https:') throw new TypeError(`peer "${peer.name}": only http and https URLs can be probed`);
    }
  }
}

function toVerdict(peer: PeerConfig, result: AttemptResult, sent: SentMessage[], startedAt: number, at: number, attempts: number): ProbeVerdict {
  const detail = attempts > 1 ? `${result.evidence.detail} (attempt ${attempts})` : result.evidence.detail;
  return {
    peer: peer.name,
    target: describeTarget(peer.target),
    era: result.era,
    state: result.state,
    evidence: { ...result.evidence, detail },
    version: result.version,
    supportedVersions: result.supportedVersions,
    serverInfo: result.serverInfo,
    transport: result.transport,
    sent: [...sent],
    enableWith: result.enableWith,
    retryAfterMs: result.state === 'unavailable' ? result.retryAfterMs : null,
    latencyMs: at - startedAt,
    at,
  };
}

async function probeWithRetries(peer: PeerConfig, options: ResolvedProbeOptions): Promise<PeerReport> {
  const sent: SentMessage[] = [];
  const startedAt = options.now();
  let attempt = 1;
  let result = await probeOnce(peer, options, sent);
  while (result.state === 'unavailable' && attempt < options.attempts) {
    const waitMs = computeBackoffMs(attempt, result.retryAfterMs, options);
    if (waitMs === null) break;
    await options.sleep(waitMs);
    attempt += 1;
    result = await probeOnce(peer, options, sent);
  }
  return { verdict: toVerdict(peer, result, sent, startedAt, options.now(), attempt), tools: result.tools };
}

/** Probes each peer and answers its verdict with its own tool list. */
export async function probePeers(peers: readonly PeerConfig[], options: ProbeOptions = {}): Promise<PeerReport[]> {
  checkPeers(peers);
  const resolved = resolveProbeOptions(options);
  return Promise.all(peers.map((peer) => probeWithRetries(peer, resolved)));
}

/** Probes one peer, or several, and answers their verdicts. */
export function probe(peer: PeerConfig, options?: ProbeOptions): Promise<ProbeVerdict>;
export function probe(peers: readonly PeerConfig[], options?: ProbeOptions): Promise<ProbeVerdict[]>;
export async function probe(peers: PeerConfig | readonly PeerConfig[], options: ProbeOptions = {}): Promise<ProbeVerdict | ProbeVerdict[]> {
  const list: readonly PeerConfig[] = Array.isArray(peers) ? peers : [peers as PeerConfig];
  const reports = await probePeers(list, options);
  return Array.isArray(peers) ? reports.map((r) => r.verdict) : reports[0]!.verdict;
}

/** Probes the peers and merges the tool lists of those that are ready, under `collision` (default prefix). */
export async function probeCatalogue(peers: readonly PeerConfig[], options: ProbeOptions & { collision?: CollisionPolicy } = {}): Promise<CatalogueReport> {
  const reports = await probePeers(peers, options);
  return { peers: reports, catalogue: mergeReports(reports, options.collision ?? 'prefix') };
}

/** Merges the lists of the ready peers whose own list was read without error. */
export function mergeReports(reports: readonly PeerReport[], policy: CollisionPolicy): CatalogueResult {
  const lists = reports.flatMap(({ verdict, tools }) => (verdict.state === 'ready' && tools?.ok ? [{ peer: verdict.peer, tools: tools.tools }] : []));
  return mergeCatalogues(lists, policy);
}
