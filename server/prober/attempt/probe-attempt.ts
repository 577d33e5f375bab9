/**
 * One attempt at probing one peer: its context (policy, settings, the wire record shared by all
 * attempts) and its result, before it becomes a ProbeVerdict.
 */
import type { ToolListing } from '../catalogue/collect-tools.js';
import type { EraChannel, MessageShape } from './era-channel.js';
import type { CacheDropReason } from './era-cache.js';
import { resolvePolicy, type PeerConfig, type PeerPolicy } from '../targets/peer-config.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../wire/probe-messages.js';
import type { ProbeObservation } from '../wire/probe-observation.js';
import type { ResolvedProbeOptions } from '../probe-options.js';
import type { ServerInfo } from '../judge/read-discover-result.js';
import type { Evidence, ProbedEra, ProbeVerdict, SentMessage, VerdictState } from '../verdict.js';

export interface AttemptResult {
  era: ProbedEra | null;
  state: VerdictState;
  evidence: Evidence;
  version: string | null;
  supportedVersions: string[] | null;
  serverInfo: ServerInfo | null;
  transport: ProbeVerdict['transport'];
  enableWith: string | null;
  /** The peer's own tool list, when the era was chosen and it advertises tools. */
  tools: ToolListing | null;
  hasTools: boolean;
  retryAfterMs: number | null;
  /** Set when the cached era of this peer must go. */
  drop: CacheDropReason | null;
}

export interface AttemptContext {
  peer: PeerConfig;
  policy: PeerPolicy;
  options: ResolvedProbeOptions;
  /** Every JSON-RPC message put on the wire, in order, across attempts. */
  sent: SentMessage[];
  /** Channels opened during the attempt (HTTP+SSE joins the first), all closed at its end. */
  opened: EraChannel[];
  nextId(): number;
}

export function createAttemptContext(peer: PeerConfig, options: ResolvedProbeOptions, sent: SentMessage[]): AttemptContext {
  let id = 0;
  return { peer, policy: resolvePolicy(peer), options, sent, opened: [], nextId: () => ++id };
}

/** Records the request, then sends it. */
export function sendRequest(ctx: AttemptContext, channel: EraChannel, message: JsonRpcRequest, shape: MessageShape, timeoutMs: number): Promise<ProbeObservation> {
  ctx.sent.push({ method: message.method, id: message.id });
  return channel.request(message, shape, timeoutMs);
}

export function sendNotification(ctx: AttemptContext, channel: EraChannel, message: JsonRpcNotification, shape: MessageShape): Promise<ProbeObservation | null> {
  ctx.sent.push({ method: message.method, id: null });
  return channel.notify(message, shape, ctx.options.probeTimeoutMs);
}

/** A result that is not ready: the era stays unknown unless `era` says otherwise. */
export function failedResult(
  transport: ProbeVerdict['transport'],
  evidence: Evidence,
  state: Exclude<VerdictState, 'ready'>,
  extra: Partial<Pick<AttemptResult, 'era' | 'enableWith' | 'supportedVersions' | 'retryAfterMs' | 'drop'>> = {},
): AttemptResult {
  return {
    era: extra.era ?? null,
    state,
    evidence,
    version: null,
    supportedVersions: extra.supportedVersions ?? null,
    serverInfo: null,
    transport,
    enableWith: extra.enableWith ?? null,
    tools: null,
    hasTools: false,
    retryAfterMs: extra.retryAfterMs ?? null,
    drop: extra.drop ?? null,
  };
}
