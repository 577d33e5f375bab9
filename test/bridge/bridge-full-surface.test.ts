import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_INFO } from '../peers/clients.js';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { createLegacyHttpBridge } from '../../server/bridge/legacy-http-bridge.js';
import { FIRST_MODERN_VERSION } from '../../server/protocol/versions.js';
import { listenPeer, type Peer } from '../peers/listen-peer.js';
import { runV1FullSession } from '../peers/run-v1-full-session.js';
import { startV2Server } from '../peers/v2-server.js';
import { startV2SessionfulDualServer } from '../peers/v2-sessionful-dual-server.js';

describe('the bridge carries resources, prompts and an elicitation through input_required', () => {
  let modern: Awaited<ReturnType<typeof startV2Server>>;
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

  it("the server's list changes reach the v1 client's standalone stream, through a modern subscriptions/listen", async () => {
    const client = new V1Client(CLIENT_INFO);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void (changed += 1));
    await client.connect(new V1HttpTransport(bridge.url));
    try {
      // The client opens its stream after the handshake, on its own time: publish until one arrives.
      const deadline = Date.now() + 10_000;
      while (changed === 0 && Date.now() < deadline) {
        modern.notify.toolsChanged();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(changed).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
