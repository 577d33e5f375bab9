import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BridgeKeyRing } from '../../server/bridge/bridge-key-ring.js';
import { createLegacyHttpBridge } from '../../server/bridge/legacy-http-bridge.js';
import { createLogger } from '../../server/lib/create-logger.js';
import { createRevocationRefresher, type RevocationRefresher } from '../../server/metering/create-revocation-refresher.js';
import { SESSION_NOT_FOUND } from '../../server/protocol/error-codes.js';
import { createSqliteStore } from '../../server/store/sqlite/create-sqlite-store.js';
import { CLIENT_INFO } from '../peers/clients.js';
import { listenPeer, type Peer } from '../peers/listen-peer.js';
import { startV2Server } from '../peers/v2-server.js';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, type TestService } from '../support/start-test-service.js';

const NOW = Date.UTC(2026, 11, 2, 12);
const HOUR = 3_600_000;

/** A v1 client through the bridge, keeping the status and body of the last answer it got. */
async function connectV1(url: URL) {
  const last: { status: number; text: string } = { status: 0, text: '' };
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'POST') Object.assign(last, { status: response.status, text: await response.clone().text() });
    return response;
  };
  const client = new V1Client(CLIENT_INFO);
  const transport = new V1HttpTransport(url, { fetch: recording });
  await client.connect(transport);
  return { client, token: transport.sessionId!, last };
}

describe('a bridge session revoked through the API', () => {
  let modern: Peer;
  let bridge: Peer;
  let upstream: RawUpstream;
  let api: TestService;
  let refresher: RevocationRefresher;

  beforeAll(async () => {
    modern = await startV2Server('modern');
    upstream = await startRawUpstream((_req, res) => res.writeHead(404).end());
    // The node that takes the revocation (its API) and the bridge node share only the database.
    api = await startTestService(new URL(upstream.origin), {}, () => NOW);
    refresher = createRevocationRefresher({ store: createSqliteStore(api.database()), now: () => NOW, logger: createLogger('silent'), refreshEveryMs: 60_000 });
    await refresher.start();
    const node = createLegacyHttpBridge({
      upstream: modern.url,
      ring: new BridgeKeyRing(randomBytes(32)),
      sessionTtlMs: 24 * HOUR,
      maxBodyBytes: 1 << 20,
      now: () => NOW,
      isRevoked: refresher.isRevoked,
    });
    bridge = await listenPeer(createServer(node.handle), '/mcp', []);
  });
  afterAll(async () => {
    refresher?.stop();
    await Promise.all([bridge?.close(), modern?.close()]);
    await api?.dispose();
    await upstream?.close();
  });

  test('is refused at the client\'s next request once the bridge node has read it; other sessions go on', async () => {
    const revoked = await connectV1(bridge.url);
    const spared = await connectV1(bridge.url);
    try {
      expect((await revoked.client.listTools()).tools.length).toBeGreaterThan(0);
      const response = await fetch(new URL('/api/v1/bridge/revocations', api.apiUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session: revoked.token, reason: 'credential leaked' }),
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ expiresAt: new Date(NOW + 24 * HOUR).toISOString(), reason: 'credential leaked' });

      await refresher.refresh();
      await expect(revoked.client.listTools()).rejects.toThrow(/revoked/);
      expect(revoked.last.status).toBe(404);
      const error = (JSON.parse(revoked.last.text) as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(SESSION_NOT_FOUND);
      expect(error.message).toContain('revoked');
      expect((await spared.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await Promise.all([revoked.client.close(), spared.client.close()]);
    }
  });
});
