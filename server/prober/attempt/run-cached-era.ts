/**
 * An HTTP peer whose era is cached is used as a client would use it, without `server/discover`:
 * modern goes straight to `tools/list`, legacy to the one validated `initialize`. A cached
 * assumption that fails is dropped, so the next attempt starts again with `server/discover`.
 */
import type { CachedEra } from './era-cache.js';
import type { EraChannel } from './era-channel.js';
import { listPeerTools } from '../catalogue/list-peer-tools.js';
import { failedResult, type AttemptContext, type AttemptResult } from './probe-attempt.js';
import { runLegacyHandshake } from './run-legacy-handshake.js';

export async function runCachedEra(channel: EraChannel, ctx: AttemptContext, cached: CachedEra): Promise<AttemptResult> {
  const since = `the ${cached.era} era cached at ${new Date(cached.at).toISOString()}`;
  if (cached.era === 'modern') {
    const tools = await listPeerTools(channel, ctx, { era: 'modern', version: cached.version });
    if (!tools.ok) {
      return failedResult(channel.transport, { class: 'AMB', code: 'cached-era-failed', detail: `${since} no longer holds: ${tools.detail}` }, 'unavailable', { drop: 'assumption-failed' });
    }
    return {
      era: 'modern', state: 'ready', evidence: { class: 'MOD', code: 'cached-era', detail: `${since}; tools/list answered at ${cached.version}` },
      version: cached.version, supportedVersions: null, serverInfo: null, transport: channel.transport, enableWith: null,
      tools, hasTools: true, retryAfterMs: null, drop: null,
    };
  }
  const offer = [cached.version, ...ctx.options.legacyVersions.filter((v) => v !== cached.version)];
  const leg = await runLegacyHandshake(channel, ctx, offer, since);
  if (leg.kind === 'modern') {
    return failedResult(channel.transport, { class: 'MOD-ERR', code: 'cached-era-failed', detail: `${since} no longer holds: ${leg.detail}` }, 'unavailable', { drop: 'assumption-failed' });
  }
  const { result } = leg;
  if (result.state === 'ready') return { ...result, evidence: { ...result.evidence, code: 'cached-era' } };
  // Whatever went wrong, the next attempt re-probes from scratch: only auth stays as it is.
  return { ...result, state: result.state === 'auth-required' ? 'auth-required' : 'unavailable', drop: result.drop ?? 'assumption-failed' };
}
