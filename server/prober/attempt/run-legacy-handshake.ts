/**
 * The one legacy `initialize`, under its own deadline, then — only if every checklist item holds —
 * `notifications/initialized` once and `tools/list`. Anything else leaves the peer without an era:
 * no `notifications/initialized`, no second `initialize` in this attempt, nothing cached.
 */
import { classifyInitializeReply, type InitializeOutcome } from '../judge/classify-initialize-reply.js';
import type { EraChannel } from './era-channel.js';
import { listPeerTools, NO_TOOLS } from '../catalogue/list-peer-tools.js';
import { failedResult, sendNotification, sendRequest, type AttemptContext, type AttemptResult } from './probe-attempt.js';
import { buildInitializedNotification, buildInitializeRequest } from '../wire/probe-messages.js';
import type { ProbeObservation } from '../wire/probe-observation.js';
import { hasToolsCapability } from '../judge/read-discover-result.js';

export type LegacyLeg = { kind: 'modern'; retryWith: string; detail: string } | { kind: 'done'; result: AttemptResult };

const done = (result: AttemptResult): LegacyLeg => ({ kind: 'done', result });

async function sendInitialize(channel: EraChannel, ctx: AttemptContext, offer: readonly string[]): Promise<InitializeOutcome> {
  const { options } = ctx;
  const id = ctx.nextId();
  const request = buildInitializeRequest(id, offer[0]!, options.clientInfo);
  const observation = await sendRequest(ctx, channel, request, { era: 'legacy', version: null }, options.initializeTimeoutMs);
  return classifyInitializeReply(observation, { sentId: id, accept: offer, modernVersions: options.modernVersions, now: options.now() });
}

/** The HTTP+SSE leg, for a peer that allows it, after the `initialize` POST was refused without a JSON-RPC body. */
async function initializeOverHttpSse(
  channel: EraChannel,
  ctx: AttemptContext,
  offer: readonly string[],
  refusal: { code: string; detail: string },
): Promise<{ channel: EraChannel; outcome: InitializeOutcome } | { result: AttemptResult }> {
  const fail = (code: string, detail: string, state: 'unavailable' | 'incompatible' | 'auth-required', enableWith: string | null = null) =>
    ({ result: failedResult(channel.transport, { class: 'AMB', code, detail }, state, { enableWith }) });
  if (!ctx.policy.allowHttpSse || channel.openHttpSse === undefined) {
    return fail(refusal.code, `${refusal.detail}; the deprecated HTTP+SSE transport was not tried`, 'incompatible', 'allowHttpSse');
  }
  const opening = await channel.openHttpSse(ctx.options.initializeTimeoutMs);
  if (!opening.ok) return fail(opening.code, `${refusal.detail}; ${opening.detail}`, opening.state);
  ctx.opened.push(opening.channel);
  return { channel: opening.channel, outcome: await sendInitialize(opening.channel, ctx, offer) };
}

function isAccepted(ack: ProbeObservation | null): boolean {
  return ack === null || (ack.kind === 'http' && ack.response.status >= 200 && ack.response.status < 300);
}

/**
 * Runs the handshake on `channel` (already respawned when the probe left the process dead).
 * `offer[0]` is offered; only a result inside `offer` passes. `trigger` is what led here.
 */
export async function runLegacyHandshake(channel: EraChannel, ctx: AttemptContext, offer: readonly string[], trigger: string): Promise<LegacyLeg> {
  let active = channel;
  let outcome = await sendInitialize(channel, ctx, offer);
  if (outcome.kind === 'try-http-sse') {
    const fallback = await initializeOverHttpSse(channel, ctx, offer, outcome);
    if ('result' in fallback) return done(fallback.result);
    ({ channel: active, outcome } = fallback);
  }
  const { transport } = active;
  switch (outcome.kind) {
    case 'modern':
      return outcome;
    case 'try-http-sse':
      return done(failedResult(transport, { class: 'AMB', code: 'initialize-no-answer', detail: outcome.detail }, 'unavailable'));
    case 'fail':
      return done(failedResult(transport, { class: outcome.class, code: outcome.code, detail: `${trigger}; ${outcome.detail}` }, outcome.state, { era: outcome.era, retryAfterMs: outcome.retryAfterMs }));
    case 'legacy':
      break;
  }
  const shape = { era: 'legacy' as const, version: outcome.version };
  const ack = await sendNotification(ctx, active, buildInitializedNotification(), shape);
  if (!isAccepted(ack)) {
    const gone = ack?.kind === 'http' && ack.response.status === 404 && ack.response.hadSession;
    const said = ack?.kind === 'http' ? `HTTP ${ack.response.status}` : (ack?.kind ?? 'nothing');
    return done(failedResult(transport, { class: 'AMB', code: gone ? 'legacy-session-gone' : 'initialized-refused', detail: `notifications/initialized got ${said}` }, 'unavailable', { drop: gone ? 'session-gone' : null }));
  }
  const hasTools = hasToolsCapability(outcome.capabilities);
  const tools = hasTools ? await listPeerTools(active, ctx, shape) : NO_TOOLS;
  if (!tools.ok && tools.sessionGone) {
    return done(failedResult(transport, { class: 'AMB', code: 'legacy-session-gone', detail: `${tools.detail}: the server may have restarted` }, 'unavailable', { drop: 'session-gone' }));
  }
  return done({
    era: 'legacy',
    state: 'ready',
    evidence: { class: 'LEGACY', code: 'initialize-validated', detail: `${trigger}; initialize offering ${offer[0]} passed every check` },
    version: outcome.version,
    supportedVersions: null,
    serverInfo: outcome.serverInfo,
    transport,
    enableWith: null,
    tools,
    hasTools,
    retryAfterMs: null,
    drop: null,
  });
}
