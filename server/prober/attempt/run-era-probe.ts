/**
 * The era state machine on one channel: `server/discover` first, then exactly what
 * decideNextStep says. At most two probes per attempt: a corrective one after -32022, or one
 * after an `initialize` that turned out to reach a modern server.
 */
import { classifyProbeReply } from '../judge/classify-probe-reply.js';
import { decideNextStep, FIRST_PHASE, type ProbePhase } from '../judge/decide-next-step.js';
import type { EraChannel } from './era-channel.js';
import { listPeerTools, NO_TOOLS } from '../catalogue/list-peer-tools.js';
import { failedResult, sendRequest, type AttemptContext, type AttemptResult } from './probe-attempt.js';
import { buildDiscoverRequest } from '../wire/probe-messages.js';
import type { ProbeOutcome } from '../judge/probe-outcome.js';
import { runLegacyHandshake } from './run-legacy-handshake.js';

const after = (history: readonly string[], detail: string) => (history.length === 0 ? detail : `${history.join('; ')}; then ${detail}`);

async function adoptModern(channel: EraChannel, ctx: AttemptContext, outcome: Extract<ProbeOutcome, { class: 'MOD' }>, history: string[]): Promise<AttemptResult> {
  const tools = outcome.hasTools ? await listPeerTools(channel, ctx, { era: 'modern', version: outcome.version }) : NO_TOOLS;
  return {
    era: 'modern',
    state: 'ready',
    evidence: { class: 'MOD', code: outcome.code, detail: after(history, outcome.detail) },
    version: outcome.version,
    supportedVersions: outcome.supported,
    serverInfo: outcome.serverInfo,
    transport: channel.transport,
    enableWith: null,
    tools,
    hasTools: outcome.hasTools,
    retryAfterMs: null,
    drop: null,
  };
}

function supportedOf(outcome: ProbeOutcome): string[] | null {
  return 'supported' in outcome ? outcome.supported : null;
}

export async function runEraProbe(channel: EraChannel, ctx: AttemptContext): Promise<AttemptResult> {
  const { options, policy } = ctx;
  const history: string[] = [];
  let phase: ProbePhase = FIRST_PHASE;
  let version = options.modernVersions[0];
  if (version === undefined) throw new Error('no modern version configured');
  for (let round = 1; ; round++) {
    const id = `mcp-sunset-discover-${round}`;
    const observation = await sendRequest(ctx, channel, buildDiscoverRequest(id, version, options.clientInfo), { era: 'modern', version }, options.probeTimeoutMs);
    const outcome = classifyProbeReply(observation, {
      transport: channel.transport === 'stdio' ? 'stdio' : 'streamable-http',
      sentId: id,
      sentVersion: version,
      modernVersions: options.modernVersions,
      legacyVersions: options.legacyVersions,
      now: options.now(),
    });
    const step = decideNextStep(outcome, policy, phase, options.legacyVersions);
    switch (step.kind) {
      case 'adopt-modern':
        return adoptModern(channel, ctx, outcome as Extract<ProbeOutcome, { class: 'MOD' }>, history);
      case 'reprobe':
        history.push(outcome.detail);
        phase = { corrected: true, legacyClosed: true };
        version = step.version;
        continue;
      case 'stop':
        return failedResult(channel.transport, { class: outcome.class, code: outcome.code, detail: after(history, outcome.detail) }, step.state, {
          era: step.era,
          enableWith: step.enableWith,
          supportedVersions: supportedOf(outcome),
          retryAfterMs: outcome.class === 'STOP' ? outcome.retryAfterMs : null,
          // A stdio process that died or was killed is gone: whatever was remembered about it too.
          drop: outcome.class === 'AMB' && outcome.deadProcess ? 'restart' : null,
        });
      case 'initialize': {
        // Never write to a dead pipe: a killed or exited process is replaced first.
        if (step.respawn || channel.isDead()) await channel.restart();
        const leg = await runLegacyHandshake(channel, ctx, step.offer, after(history, `server/discover: ${outcome.detail}`));
        if (leg.kind === 'done') return { ...leg.result, supportedVersions: leg.result.supportedVersions ?? supportedOf(outcome) };
        // Modern evidence in answer to initialize: this process may already be pinned legacy-side, so a fresh one is probed.
        if (channel.transport === 'stdio') await channel.restart();
        history.push(outcome.detail, leg.detail);
        phase = { corrected: true, legacyClosed: true };
        version = leg.retryWith;
        continue;
      }
    }
  }
}
