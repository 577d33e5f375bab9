/**
 * One attempt on one peer: open the transport, probe (or use the cached era over HTTP), keep the
 * cache in step with what was found, and close everything that was opened.
 */
import type { EraCache } from './era-cache.js';
import { createHttpChannel } from '../http/http-channel.js';
import type { PeerConfig } from '../targets/peer-config.js';
import { createAttemptContext, type AttemptResult } from './probe-attempt.js';
import type { ResolvedProbeOptions } from '../probe-options.js';
import { runCachedEra } from './run-cached-era.js';
import { runEraProbe } from './run-era-probe.js';
import { createStdioChannel } from '../stdio/stdio-channel.js';
import type { SentMessage } from '../verdict.js';

function updateCache(cache: EraCache, peer: PeerConfig, result: AttemptResult, now: number): void {
  if (result.state === 'ready' && result.era !== null && result.version !== null) {
    cache.remember(peer, { era: result.era, version: result.version, transport: result.transport, hasTools: result.hasTools, at: now });
  } else if (result.drop !== null) {
    cache.forget(peer, result.drop);
  }
}

export async function probeOnce(peer: PeerConfig, options: ResolvedProbeOptions, sent: SentMessage[]): Promise<AttemptResult> {
  const ctx = createAttemptContext(peer, options, sent);
  const { target } = peer;
  const { cache } = options;
  // Each stdio attempt spawns a fresh process, which is a restart: a cached legacy era is dropped
  // before anything is sent, and a cached modern one is confirmed by probing like any other.
  const cached = target.kind === 'stdio' ? (cache?.noteSpawn(peer), undefined) : cache?.lookup(peer);
  const channel = target.kind === 'stdio' ? createStdioChannel(target) : createHttpChannel(target, options);
  ctx.opened.push(channel);
  try {
    // A modern peer without tools has nothing cheaper to confirm its era with than server/discover.
    const result = cached !== undefined && (cached.era === 'legacy' || cached.hasTools)
      ? await runCachedEra(channel, ctx, cached)
      : await runEraProbe(channel, ctx);
    if (cache !== undefined) updateCache(cache, peer, result, options.now());
    return result;
  } finally {
    await Promise.all(ctx.opened.map((opened) => opened.close().catch(() => undefined)));
  }
}
