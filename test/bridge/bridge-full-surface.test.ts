import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { createLegacyHttpBridge } from '../../server/bridge/legacy-http-bridge.js';
import { FIRST_MODERN_VERSION } from '../../server/protocol/versions.js';
import { listenPeer, type Peer } from '../peers/listen-peer.js';
import { runV1FullSession } from '../peers/run-v1-full-session.js';
import { startV2Server } from '../peers/v2-server.js';
import { startV2SessionfulDualServer } from '../peers/v2-sessionful-dual-server.js';

describe('the bridge carries resources, prompts and an elicitation through input_required', () => {
  let modern: Peer;
  let dual: Peer;
  let bridge: Peer;

  beforeAll(async () => {
    [modern, dual] = await Promise.all([startV2Server('modern', { surface: 'bridge' }), startV2SessionfulDualServer()]);
    const node = createLegacyHttpBridge({ upstream: modern.url, ring: new BridgeKeyRing(randomBytes(32)), sessionTtlMs: 3_600_000, maxBodyBytes: 1 << 20, now: Date.now });
    bridge = await listenPeer(createServer(node.handle), '/mcp', []);
  });
  afterAll(async () => {
    await Promise.all([bridge?.close(), modern?.close(), dual?.close()]);
  });

  it('an SDK v1 client gets through the bridge what it gets from a dual-era server with legacy sessions', async () => {
    modern.seen.length = 0;
    const bridged = await runV1FullSession({ url: bridge.url, kind: 'http' });
    const direct = await runV1FullSession({ url: dual.url, kind: 'http' });
    expect(bridged).toEqual(direct);
    expect(bridged.confirmed).toBe('deploy: confirmed (ok)');
    expect(bridged.asked).toEqual(['Really deploy?']);
    expect(bridged.toolNames).toContain('confirm');
    expect(modern.seen.every((r) => r.method === 'POST' && r.protocolVersion === FIRST_MODERN_VERSION)).toBe(true);
  });
});
