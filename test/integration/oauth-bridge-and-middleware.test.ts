import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { meter, type MeterMiddleware } from '../../server/express/index.js';
import { listTraffic } from '../../server/store/sqlite/list-traffic.js';
import type { TrafficDimension } from '../../server/store/records/traffic-series.js';
import { openDatabase } from '../../server/store/sqlite/open-database.js';
import { insertPlan } from '../../server/store/sqlite/insert-plan.js';
import { planInput } from '../support/plan-input.js';
import { dayFromNow, errorOf } from '../support/enforcement-peers.js';
import type { Peer } from '../peers/listen-peer.js';
import { callsAcrossRefreshes, connectV1, SignedInUser, signIn } from '../peers/oauth-clients.js';
import { OAuthResource } from '../peers/oauth-resource.js';
import { startV1SessionServer } from '../peers/v1-session-server.js';
import { startV2Server } from '../peers/v2-server.js';
import { startAuthorizationServer, type AuthorizationServer, type RegisteredClient } from '../support/authorization-server.js';
import { freePort } from '../support/free-port.js';
import { rawRequest, type RawResponse } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

/** Two applications whose people sign in (public clients, authorization code with refresh). */
const DESK = 'https://desk.example/client.json';
const REPORTS = 'https://reports.example/client.json';
const desk = `oauth:${DESK}`;
const reports = `oauth:${REPORTS}`;
const CLIENTS: RegisteredClient[] = [DESK, REPORTS].map((clientId) => ({ clientId, grants: ['authorization_code', 'refresh_token'] }));

const ACCEPT = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'];
const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });

function headerOf(response: RawResponse, name: string): string | undefined {
  const at = response.rawHeaders.findIndex((header, i) => i % 2 === 0 && header.toLowerCase() === name);
  return at === -1 ? undefined : response.rawHeaders[at + 1];
}

/** A `tools/list` in a legacy session, with this bearer token. */
function inSession(url: URL, sessionId: string, token: string): Promise<RawResponse> {
  return rawRequest(url, 'POST', [...ACCEPT, 'Mcp-Session-Id', sessionId, 'MCP-Protocol-Version', '2025-11-25', 'Authorization', `Bearer ${token}`], TOOLS_LIST);
}

/** Totals of the last hour per group, read from the SQLite file the middleware wrote. */
function totals(db: string, groupBy: TrafficDimension, filters: Partial<Record<TrafficDimension, string>> = {}): Record<string, number> {
  const store = openDatabase(db);
  try {
    return listTraffic(store.db, { from: Date.now() - 3_600_000, to: Date.now() + 60_000, bucket: 'minute', groupBy, filters }).totals;
  } finally {
    store.close();
  }
}

/**
 * The bridge in front of a modern-only server protected by OAuth: legacy clients of signed-in
 * people get sessions from the bridge, bound to the application and person their token names.
 */
describe('bridged sessions of OAuth callers', () => {
  let as: AuthorizationServer;
  let resource: OAuthResource;
  let peer: Peer;
  let service: TestService;
  let url: URL;

  beforeAll(async () => {
    const port = await freePort();
    url = new URL(`http://127.0.0.1:${port}/mcp`);
    as = await startAuthorizationServer({ clients: CLIENTS, accessTokenFormat: 'jwt', resource: () => url.href });
    resource = new OAuthResource(as.issuer, { kind: 'jwt' });
    resource.setResource(url);
    peer = await startV2Server('modern', { oauth: resource });
    service = await startTestService(new URL(peer.origin), {
      listen: `127.0.0.1:${port}`,
      bridge: { enabled: true, key: randomBytes(32).toString('hex') },
      identity: { oauth: { issuers: [{ issuer: as.issuer, audience: url.href }] } },
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
    await as?.close();
  });

  test('a legacy client\'s session outlives its token: refreshed mid-session, the same session goes on without a new initialize', async () => {
    const alice = new SignedInUser(as, DESK, 'alice');
    const client = await connectV1(url, alice);
    try {
      expect(await client.add(1, 2)).toBe('3');
      const sessionId = client.sessionId();
      expect(sessionId).toEqual(expect.any(String));
      expect(await callsAcrossRefreshes(client, alice, resource, 3)).toEqual(['2', '4', '6']);
      expect(client.sessionId()).toBe(sessionId);
      expect(new Set(alice.saved.map((t) => t.access_token)).size).toBe(4);
    } finally {
      await client.close();
    }
    // One handshake served (the one before it was refused for want of a token), every call served, all A's.
    expect(await trafficTotals(service, 'method', { outcome: 'served' })).toMatchObject({ initialize: 1, 'tools/call': 4 });
    expect(await trafficTotals(service, 'integration', { outcome: 'served', method: 'tools/call' })).toEqual({ [desk]: 4 });
  });

  test('the session id with another person\'s valid token of the same application, or another application\'s, is refused and never reaches the server', async () => {
    const alice = new SignedInUser(as, DESK, 'alice-2');
    const client = await connectV1(url, alice);
    try {
      expect(await client.add(1, 1)).toBe('2');
      const sessionId = client.sessionId()!;
      const bob = await signIn(new SignedInUser(as, DESK, 'bob'), url);
      const dave = await signIn(new SignedInUser(as, REPORTS, 'dave'), url);
      const seen = peer.seen.length;
      for (const other of [bob, dave]) {
        const replayed = await inSession(url, sessionId, other.accessToken());
        expect({ who: other.login, status: replayed.status }).toEqual({ who: other.login, status: 404 });
        expect(replayed.body.toString()).toContain('other-credential');
      }
      expect(peer.seen.slice(seen)).toEqual([]);
      // The session's own person, with the token they hold now, is served.
      const own = await inSession(url, sessionId, alice.accessToken());
      expect(own.status).toBe(200);
      expect(own.body.toString()).toContain('"add"');
      expect(await client.add(2, 2)).toBe('4');
    } finally {
      await client.close();
    }
  });
});

/**
 * The middleware inside the host's own Express app (the SDK v1 server with sessions and the SDK's
 * bearer check), in front of everything at /mcp, configured with the authorization server.
 */
describe('the Express middleware with OAuth callers', () => {
  let as: AuthorizationServer;
  let resource: OAuthResource;
  let peer: Peer;
  let metered: MeterMiddleware | undefined;
  let folder: string;
  let db: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-oauth-express-'));
    db = join(folder, 'sunset.db');
    let resourceUrl = '';
    as = await startAuthorizationServer({ clients: CLIENTS, accessTokenFormat: 'jwt', resource: () => resourceUrl });
    resource = new OAuthResource(as.issuer, { kind: 'jwt' });
    // The app's URL is the resource, known once it listens; the middleware is built then, before any request.
    peer = await startV1SessionServer({ oauth: resource, before: (req, res, next) => metered!(req, res, next) });
    resourceUrl = peer.url.href;
    resource.setResource(peer.url);
    metered = meter({ db, node: 'app-1', logger: pino({ level: 'silent' }), identity: { oauth: { issuers: [{ issuer: as.issuer, audience: resourceUrl }] } } });
  });
  afterAll(async () => {
    await peer?.close();
    await metered?.close();
    await as?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  test('people of two applications signing in and refreshing their tokens are counted under exactly two callers', async () => {
    for (const [clientId, login] of [[DESK, 'alice'], [DESK, 'bob'], [REPORTS, 'dave'], [REPORTS, 'erin']] as const) {
      const person = new SignedInUser(as, clientId, login);
      const client = await connectV1(peer.url, person);
      expect(await client.add(1, 2)).toBe('3');
      expect(await callsAcrossRefreshes(client, person, resource, 2)).toEqual(['2', '4']);
      await client.close();
    }
    expect(new Set(resource.accepted.map((t) => t.token)).size).toBe(12);

    await metered!.close();
    expect(Object.keys(totals(db, 'integration', { outcome: 'served' })).sort()).toEqual([desk, reports].sort());
    expect(totals(db, 'integration', { outcome: 'served', method: 'tools/call' })).toEqual({ [desk]: 6, [reports]: 6 });
    // Besides, only each first attempt, made before signing in: anonymous, and refused by the server's bearer check.
    expect(totals(db, 'outcome', { integration: 'anonymous' })).toEqual({ 'client-error': 4 });
  });
});

describe('the Express middleware under a cut, with OAuth callers', () => {
  let as: AuthorizationServer;
  let resource: OAuthResource;
  let peer: Peer;
  let metered: MeterMiddleware | undefined;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mcp-sunset-oauth-express-cut-'));
    const db = join(folder, 'sunset.db');
    // The legacy era retired yesterday; the desk application is exempt for a month.
    const store = openDatabase(db);
    insertPlan(store.db, planInput({ retireDate: dayFromNow(-1), announceDate: dayFromNow(-90), exemptions: [{ integration: desk, until: dayFromNow(30), note: 'migrating' }] }), Date.now());
    store.close();
    let resourceUrl = '';
    as = await startAuthorizationServer({ clients: CLIENTS, accessTokenFormat: 'jwt', resource: () => resourceUrl });
    resource = new OAuthResource(as.issuer, { kind: 'jwt' });
    peer = await startV1SessionServer({ oauth: resource, before: (req, res, next) => metered!(req, res, next) });
    resourceUrl = peer.url.href;
    resource.setResource(peer.url);
    metered = meter({
      db,
      node: 'app-cut',
      logger: pino({ level: 'silent' }),
      identity: { oauth: { issuers: [{ issuer: as.issuer, audience: resourceUrl }] } },
      enforcement: { supportedVersions: ['2026-07-28', '2025-11-25'] },
    });
  });
  afterAll(async () => {
    await peer?.close();
    await metered?.close();
    await as?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  test('a refused request with no credential gets the challenge the app itself sends, so a new person of the exempt application signs in and is served; another application is refused', async () => {
    // The app answers a request with no credential that no plan refuses (a modern one) with its 401 and challenge: the middleware learns it.
    const modern = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
    const asked = await rawRequest(peer.url, 'POST', [...ACCEPT, 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/list'], modern);
    expect(asked.status).toBe(401);
    const challenge = headerOf(asked, 'www-authenticate');
    // The app's own words (the SDK's bearer check names the error), not the challenge the middleware would make from its settings.
    expect(challenge).toMatch(/^Bearer error="invalid_token".*resource_metadata=/);
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const refused = await rawRequest(peer.url, 'POST', ACCEPT, initialize);
    expect({ status: refused.status, challenge: headerOf(refused, 'www-authenticate') }).toEqual({ status: 401, challenge });

    const alice = new SignedInUser(as, DESK, 'alice');
    const client = await connectV1(peer.url, alice);
    expect(await client.add(1, 2)).toBe('3');
    await client.close();
    const dave = new SignedInUser(as, REPORTS, 'dave');
    expect((await errorOf(() => connectV1(peer.url, dave))).message).toContain('-32022');
    expect(resource.accepted.filter((t) => t.clientId === REPORTS)).toEqual([]);
  });
});
