import { generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_INFO } from '../peers/clients.js';
import type { Peer } from '../peers/listen-peer.js';
import { callsAcrossRefreshes, connectV1, connectV2, SignedInUser, signIn } from '../peers/oauth-clients.js';
import { OAuthResource } from '../peers/oauth-resource.js';
import { startV2Server } from '../peers/v2-server.js';
import { startAuthorizationServer, type AuthorizationServer, type RegisteredClient } from '../support/authorization-server.js';
import { dayFromNow as day, errorOf, legacyPlan, sendPlan } from '../support/enforcement-peers.js';
import { freePort } from '../support/free-port.js';
import { rawRequest, type RawResponse } from '../support/raw-request.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';
import { writeBatch } from '../support/write-batch.js';

/*
 * Retirement plans over callers named by OAuth: a real authorization server, real SDK clients of
 * both eras whose people sign in and refresh, and a real SDK server checking every token, behind
 * the sidecar. A client's first request carries no token and names nobody; a plan that refuses it
 * answers as the server would (401 and its challenge), so the SDK signs in, and its next request
 * names the application the plan decides by.
 */

/** Application A, whose people use a legacy client, and application B, never seen before the plans. */
const DESK = 'https://desk.example/client.json';
const REPORTS = 'https://reports.example/client.json';
const desk = `oauth:${DESK}`;
const reports = `oauth:${REPORTS}`;
/** The sidecar's own credentials at the authorization server, to introspect opaque tokens; and the MCP server's. */
const SUNSET = { clientId: 'mcp-sunset-introspector', clientSecret: 'sunset-secret-0123456789', grants: ['client_credentials'] } as const;
const SERVER = { clientId: 'mcp-server-introspector', clientSecret: 'server-secret-0123456789', grants: ['client_credentials'] } as const;
const PEOPLE_CLIENTS: RegisteredClient[] = [DESK, REPORTS].map((clientId) => ({ clientId, grants: ['authorization_code', 'refresh_token'] }));
const enforcement = { supportedVersions: ['2026-07-28', '2025-11-25'] };

const ACCEPT = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream'];
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });

/** An OAuth deployment: a real authorization server, the SDK's dual-era server checking every token, and the sidecar in front at the resource's URL. */
interface Deployment {
  as: AuthorizationServer;
  resource: OAuthResource;
  peer: Peer;
  service: TestService;
  /** The MCP endpoint clients use: the sidecar's, and the resource tokens are issued for. */
  url: URL;
  close(): Promise<void>;
}

/**
 * Starts a deployment. `jwt`: RFC 9068 access tokens the sidecar verifies with the issuer's keys;
 * `opaque`: tokens only introspection can read, which the sidecar and the server each ask about
 * with credentials of their own.
 */
async function startDeployment(tokens: 'jwt' | 'opaque'): Promise<Deployment> {
  const port = await freePort();
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const as = await startAuthorizationServer({ clients: [...PEOPLE_CLIENTS, SUNSET, SERVER], accessTokenFormat: tokens, resource: () => url.href });
  const resource = new OAuthResource(as.issuer, tokens === 'jwt' ? { kind: 'jwt' } : { kind: 'introspection', clientId: SERVER.clientId, clientSecret: SERVER.clientSecret });
  resource.setResource(url);
  const peer = await startV2Server('dual', { oauth: resource });
  const introspection = tokens === 'opaque' ? { introspection: { clientId: SUNSET.clientId, clientSecret: SUNSET.clientSecret } } : {};
  const service = await startTestService(new URL(peer.origin), {
    listen: `127.0.0.1:${port}`,
    identity: { oauth: { issuers: [{ issuer: as.issuer, audience: url.href, ...introspection }] } },
    enforcement,
  });
  return {
    as,
    resource,
    peer,
    service,
    url,
    async close() {
      await service.dispose();
      await peer.close();
      await as.close();
    },
  };
}

/** A legacy `initialize` as a client would send it, with this bearer token, through the sidecar. */
function legacyInitialize(url: URL, token: string): Promise<RawResponse> {
  return rawRequest(url, 'POST', [...ACCEPT, 'Authorization', `Bearer ${token}`], INITIALIZE);
}

function headerOf(response: RawResponse, name: string): string | undefined {
  const at = response.rawHeaders.findIndex((header, i) => i % 2 === 0 && header.toLowerCase() === name);
  return at === -1 ? undefined : response.rawHeaders[at + 1];
}

/** Served legacy work for `caller` on the day `offsetDays` from today, as the tally writes it: history a block-new date looks back on. */
async function seedServedLegacyWork(service: TestService, caller: string, offsetDays: number): Promise<void> {
  await writeBatch(service.store!, {
    cells: [{
      minute: Date.parse(`${day(offsetDays)}T12:00:00Z`), node: 'test-node', era: 'legacy', transport: 'streamable-http', reason: 'session-header', version: '2025-11-25',
      method: 'tools/call', kind: 'request', outcome: 'served', integration: caller, count: 3, mismatchCount: 0,
    }],
    integrations: [],
  });
}

/**
 * A block-new plan in force since yesterday, over history three days old: the application with
 * served legacy work then is known, whichever of its tokens it presents now. (Neither date is
 * today, so the test does not depend on how a block-new date of today counts the day.)
 */
async function blockNewSinceYesterday(service: TestService, known: string): Promise<void> {
  await seedServedLegacyWork(service, known, -3);
  await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ blockNewCallersFrom: day(-1) }));
}

/** The legacy era retired yesterday, with an exemption for one application. */
async function cutWithExemption(service: TestService, exempt: string): Promise<void> {
  await sendPlan(service, 'POST', '/api/v1/plans', legacyPlan({ announceDate: day(-90), retireDate: day(-1), exemptions: [{ integration: exempt, until: day(30), note: 'migrating next quarter' }] }));
}

describe('block-new, per application', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment('jwt');
    await blockNewSinceYesterday(deployment.service, desk);
  });
  afterAll(() => deployment?.close());

  test('the known application\'s legacy client is served on every refreshed token; the new application is refused over legacy and served over modern', async () => {
    const { as, resource, service, url } = deployment;
    // alice signs in through the SDK's own flow, started by the challenge the refused first request got.
    const alice = new SignedInUser(as, DESK, 'alice');
    const client = await connectV1(url, alice);
    expect(await client.add(1, 2)).toBe('3');
    expect(await callsAcrossRefreshes(client, alice, resource, 3)).toEqual(['2', '4', '6']);
    await client.close();
    expect(new Set(alice.saved.map((t) => t.access_token)).size).toBe(4);

    const dave = new SignedInUser(as, REPORTS, 'dave');
    const refused = await errorOf(() => connectV1(url, dave));
    expect(refused.message).toContain('-32022');
    expect(refused.message).toContain('closed to new callers');
    const modern = await connectV2(url, dave);
    expect(await modern.add(2, 2)).toBe('4');
    await modern.close();

    // The refusal is the plan's, of application B by name (and of each first request, which names nobody,
    // answered with the challenge); everything legacy that was served is A's.
    expect(await trafficTotals(service, 'integration', { outcome: 'blocked' })).toEqual({ [reports]: 1, anonymous: 2 });
    expect(Object.keys(await trafficTotals(service, 'integration', { era: 'legacy', outcome: 'served' }))).toEqual([desk]);
    expect(await trafficTotals(service, 'integration', { era: 'modern', outcome: 'served', method: 'tools/call' })).toEqual({ [reports]: 1 });
  });
});

describe('an exemption, per application', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment('jwt');
    await cutWithExemption(deployment.service, desk);
  });
  afterAll(() => deployment?.close());

  test('after the cut every token of the exempt application, of each person and each refresh, is served over legacy; the other application is refused', async () => {
    const { as, resource, service, url } = deployment;
    for (const login of ['alice', 'bob', 'carol']) {
      const person = new SignedInUser(as, DESK, login);
      const client = await connectV1(url, person);
      expect(await client.add(1, 2)).toBe('3');
      expect(await callsAcrossRefreshes(client, person, resource, 2)).toEqual(['2', '4']);
      await client.close();
    }
    // Nine tokens of A reached the server, three people's, each refreshed twice.
    expect(new Set(resource.accepted.filter((t) => t.clientId === DESK).map((t) => t.token)).size).toBe(9);

    const dave = new SignedInUser(as, REPORTS, 'dave');
    const refused = await errorOf(() => connectV1(url, dave));
    expect(refused.message).toContain('-32022');
    expect(refused.message).toContain('is retired on this server');
    expect(resource.accepted.filter((t) => t.clientId === REPORTS)).toEqual([]);

    // Each person's first request named nobody: refused, with the challenge that made the SDK sign in.
    expect(await trafficTotals(service, 'integration', { outcome: 'blocked' })).toEqual({ [reports]: 1, anonymous: 4 });
    expect(Object.keys(await trafficTotals(service, 'integration', { era: 'legacy', outcome: 'served' }))).toEqual([desk]);
  });
});

describe('forged tokens and an exemption', () => {
  let deployment: Deployment;
  let elsewhere: AuthorizationServer;
  beforeAll(async () => {
    deployment = await startDeployment('jwt');
    // Another real authorization server, not configured on the sidecar, where A is registered too.
    elsewhere = await startAuthorizationServer({ clients: [{ clientId: DESK, clientSecret: 'desk-secret-elsewhere-0001', grants: ['client_credentials'] }], accessTokenFormat: 'jwt', resource: () => deployment.url.href });
    await cutWithExemption(deployment.service, desk);
  });
  afterAll(async () => {
    await deployment?.close();
    await elsewhere?.close();
  });

  /** Claims an access token of application A would carry, for this resource, valid for ten minutes. */
  const claimsOfA = (): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: deployment.as.issuer, aud: deployment.url.href, client_id: DESK, sub: 'mallory', scope: 'mcp', iat: now, exp: now + 600 };
  };
  const sign = (claims: JWTPayload, key: Parameters<SignJWT['sign']>[0]) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: deployment.as.signingKey.kid! }).sign(key);
  const unsigned = (claims: JWTPayload) => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(claims)}.`;
  };
  /** A real token of the unconfigured server: A's own client credentials, for this very resource. */
  async function tokenFromElsewhere(): Promise<string> {
    const answer = await fetch(`${elsewhere.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(DESK)}:desk-secret-elsewhere-0001`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: deployment.url.href, scope: 'mcp' }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  test('tokens claiming the exempt application but not verified (wrong key, expired, another audience, unsigned, another issuer) are refused by the cut and never counted as it', async () => {
    const { as, peer, service, url } = deployment;
    const asKey = await importJWK(as.signingKey, 'RS256');
    const { privateKey: otherKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const forged = {
      'another key under the issuer\'s key id': await sign(claimsOfA(), otherKey),
      'expired, signed by the issuer': await sign({ ...claimsOfA(), iat: now - 7200, exp: now - 3600 }, asKey),
      'for another audience, signed by the issuer': await sign({ ...claimsOfA(), aud: 'http://127.0.0.1:9/another-mcp' }, asKey),
      'unsigned (alg none)': unsigned(claimsOfA()),
      'from an issuer not configured': await tokenFromElsewhere(),
    };

    // The control: a real token of A rides the exemption.
    const alice = await signIn(new SignedInUser(as, DESK, 'alice'), url);
    expect((await legacyInitialize(url, alice.accessToken())).status).toBe(200);

    for (const [what, token] of Object.entries(forged)) {
      const answer = await legacyInitialize(url, token);
      expect({ what, status: answer.status }).toEqual({ what, status: 400 });
      expect(answer.body.toString()).toContain('-32022');
      expect(answer.body.toString()).toContain('is retired on this server');
      // Refused before the server: it never saw the token.
      expect(peer.seen.filter((r) => r.authorization === `Bearer ${token}`)).toEqual([]);
    }

    // Each forged token was refused under a caller of its own (its fingerprint), none under A.
    const blocked = await trafficTotals(service, 'integration', { outcome: 'blocked' });
    expect(Object.keys(blocked)).toHaveLength(5);
    expect(Object.keys(blocked).every((key) => key.startsWith('tok_'))).toBe(true);
    expect(await trafficTotals(service, 'integration', { method: 'initialize' })).toMatchObject({ [desk]: 1 });
    expect((await service.api('/healthz')).body.identity.oauth).toMatchObject({ verified: 1, rejected: 5, unavailable: 0 });
  });
});

describe('the authorization server stopped mid-run', () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await startDeployment('opaque');
    await blockNewSinceYesterday(deployment.service, desk);
  });
  afterAll(() => deployment?.close());

  test('a token the sidecar cannot check while its issuer is down is not refused as new, the issuer shows unreachable, and once it is back the application is named again', async () => {
    const { as, peer, service, url } = deployment;
    // The plan is in force: the known application's legacy client is served, a new application is refused.
    const alice = await signIn(new SignedInUser(as, DESK, 'alice'), url);
    const client = await connectV1(url, alice);
    expect(await client.add(1, 2)).toBe('3');
    await client.close();
    const dave = await signIn(new SignedInUser(as, REPORTS, 'dave'), url);
    expect((await legacyInitialize(url, dave.accessToken())).body.toString()).toContain('closed to new callers');

    // Another person of A signs in: a token the sidecar has never seen. Then the server goes down.
    const bob = await signIn(new SignedInUser(as, DESK, 'bob'), url);
    await as.stop();
    const answer = await legacyInitialize(url, bob.accessToken());
    // The server's own answer: it cannot introspect the token either, so it challenges it. No plan refused it.
    expect(answer.status).toBe(401);
    expect(headerOf(answer, 'www-authenticate')).toMatch(/^Bearer /);
    expect(answer.body.toString()).not.toContain('-32022');
    expect(peer.seen.filter((r) => r.authorization === `Bearer ${bob.accessToken()}`)).toHaveLength(1);
    expect(await trafficTotals(service, 'integration', { outcome: 'blocked' })).toEqual({ [reports]: 1 });
    const down = (await service.api('/healthz')).body.identity.oauth;
    expect(down.issuers).toEqual([expect.objectContaining({ issuer: as.issuer, reachable: false, lastError: expect.any(String) })]);
    expect(down.unavailable).toBeGreaterThan(0);

    await as.start();
    const carol = await signIn(new SignedInUser(as, DESK, 'carol'), url);
    const servedAsDesk = async () => (await trafficTotals(service, 'integration', { method: 'initialize', outcome: 'served' }))[desk] ?? 0;
    const before = await servedAsDesk();
    // The sidecar asks again once its back-off ends: a new token of A is named A again.
    await expect
      .poll(async () => {
        expect((await legacyInitialize(url, carol.accessToken())).status).toBe(200);
        return servedAsDesk();
      }, { timeout: 30_000, interval: 250 })
      .toBeGreaterThan(before);
    expect((await service.api('/healthz')).body.identity.oauth.issuers).toEqual([expect.objectContaining({ reachable: true, lastError: null })]);
  });
});
