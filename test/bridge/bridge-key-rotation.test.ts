import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { createLegacyHttpBridge, type LegacyHttpBridge } from '../../server/bridge/legacy-http-bridge.js';
import { CLIENT_INFO, textOf } from '../peers/clients.js';
import { listenPeer, type Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';

const HOUR = 3_600_000;

describe('rotating the bridge key under an open session', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let now = Date.UTC(2026, 11, 2, 12);
  const graceEnds = now + HOUR;
  let modern: Peer;
  let front: Peer;
  let serving: LegacyHttpBridge;
  const bridge = (ring: BridgeKeyRing) => createLegacyHttpBridge({ upstream: modern.url, ring, sessionTtlMs: 24 * HOUR, maxBodyBytes: 1 << 20, now: () => now });

  beforeAll(async () => {
    modern = await startV2Server('modern');
    serving = bridge(new BridgeKeyRing(oldKey));
    // The deployment behind one address: every node moves to the new ring at once.
    front = await listenPeer(createServer((req, res) => serving.handle(req, res)), '/mcp', []);
  });
  afterAll(async () => {
    await Promise.all([front?.close(), modern?.close()]);
  });

  it('moves the session to the new key at its next request, so it outlives the old key', async () => {
    const client = new V1Client(CLIENT_INFO);
    const transport = new V1HttpTransport(front.url);
    await client.connect(transport);
    try {
      const sealedByOld = transport.sessionId!;
      serving = bridge(new BridgeKeyRing(newKey, [{ secret: oldKey, acceptedUntil: graceEnds }]));
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
      // The answer carried the id resealed under the new key, and the client took it.
      expect(transport.sessionId).not.toBe(sealedByOld);
      expect(transport.sessionId!.split('.')[1]).not.toBe(sealedByOld.split('.')[1]);
      now = graceEnds + 1;
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } }))).toBe('4');
      // The old id itself is refused now.
      const stale = await fetch(front.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sealedByOld },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(stale.status).toBe(404);
      expect(await stale.text()).toContain('key-retired');
    } finally {
      await client.close();
    }
  });
});
