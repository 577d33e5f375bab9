import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectV1, connectV2, SignedInUser } from '../peers/oauth-clients.js';
import { OAuthResource } from '../peers/oauth-resource.js';
import { startV2Server } from '../peers/v2-server.js';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server.js';
import { freePort } from '../support/free-port.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const DESK = 'https://desk.example/client.json';
const REPORTS = 'https://reports.example/client.json';
const desk = `oauth:${DESK}`;
const reports = `oauth:${REPORTS}`;

/**
 * Callers named as an OAuth deployment names them: a real authorization server issues short-lived
 * JWT access tokens (RFC 9068) for the MCP server's resource, real SDK clients of both eras sign in
 * (the authorization-code flow, one person each) and refresh, and a real SDK server checks every
 * token. The sidecar names the application behind each token, whichever token it is.
 */
describe('OAuth callers through the sidecar', () => {
  let as: AuthorizationServer;
  let resource: OAuthResource;
  let peer: Awaited<ReturnType<typeof startV2Server>>;
  let service: TestService;

  beforeAll(async () => {
    const port = await freePort();
    const mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
    as = await startAuthorizationServer({
      clients: [
        { clientId: DESK, grants: ['authorization_code', 'refresh_token'] },
        { clientId: REPORTS, grants: ['authorization_code', 'refresh_token'] },
      ],
      accessTokenFormat: 'jwt',
      resource: () => mcpUrl.href,
    });
    resource = new OAuthResource(as.issuer, { kind: 'jwt' });
    resource.setResource(mcpUrl);
    peer = await startV2Server('dual', { oauth: resource });
    service = await startTestService(new URL(peer.origin), {
      listen: `127.0.0.1:${port}`,
      identity: { oauth: { issuers: [{ issuer: as.issuer, audience: mcpUrl.href }] } },
    });
  });
  afterAll(async () => {
    await service?.dispose();
    await peer?.close();
    await as?.close();
  });

  test('two applications, several people each, tokens refreshed mid-run: exactly two callers, and the application used from both eras is migrating', async () => {
    const url = new URL('/mcp', service.sidecarUrl);
    const users = [
      { user: new SignedInUser(as, DESK, 'alice'), era: 'legacy' },
      { user: new SignedInUser(as, DESK, 'bob'), era: 'legacy' },
      { user: new SignedInUser(as, DESK, 'carol'), era: 'modern' },
      { user: new SignedInUser(as, REPORTS, 'dave'), era: 'legacy' },
      { user: new SignedInUser(as, REPORTS, 'erin'), era: 'legacy' },
    ] as const;
    for (const { user, era } of users) {
      const client = era === 'legacy' ? await connectV1(url, user) : await connectV2(url, user);
      expect(await client.add(1, 2)).toBe('3');
      // The server stops taking this token: the SDK refreshes it (refresh_token grant) and retries.
      const first = user.accessToken();
      resource.revoke(first);
      expect(await client.add(2, 3)).toBe('5');
      expect(user.accessToken()).not.toBe(first);
      await client.close();
    }
    expect(new Set(resource.accepted.map((t) => t.token)).size).toBe(10);

    // Everything the server served came from two callers, however many tokens they held.
    expect(Object.keys(await trafficTotals(service, 'integration', { outcome: 'served' })).sort()).toEqual([desk, reports].sort());
    // What else there was is each first attempt, sent before signing in: anonymous, and refused by the server.
    expect(await trafficTotals(service, 'outcome', { integration: 'anonymous' })).toEqual({ 'client-error': expect.any(Number) });
    const { body } = await service.api('/api/v1/integrations');
    const identifiable = body.integrations.filter((i: any) => i.identifiable);
    const byKey = new Map<string, any>(identifiable.map((i: any) => [i.key, i]));
    expect([...byKey.keys()].sort()).toEqual([desk, reports].sort());
    expect(byKey.get(desk)).toMatchObject({ source: 'oauth', identifiable: true, migration: 'migrating' });
    expect(byKey.get(reports)).toMatchObject({ source: 'oauth', identifiable: true });
    expect(byKey.get(reports).migration).toBe('legacy-only');

    // People, not tokens: alice and bob on the legacy path and carol on the modern one use desk; dave and erin use reports.
    expect(byKey.get(desk).people).toEqual({ legacy: 2, modern: 1, total: 3 });
    expect(byKey.get(reports).people).toEqual({ legacy: 2, modern: 0, total: 2 });
    const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000).toISOString();
    const perDay = await service.api(`/api/v1/integrations/${encodeURIComponent(desk)}/people`);
    expect(perDay.body.days).toEqual([{ day: today, legacy: 2, modern: 1, total: 3 }]);
    const byPeople = await service.api('/api/v1/integrations?orderBy=people');
    expect(byPeople.body.integrations.map((i: any) => i.key).slice(0, 2)).toEqual([desk, reports]);
    // Nothing of a person is stored but a keyed digest: no raw subject reaches the store.
    const stored = service.database().sqlite.prepare('select subject from caller_people_day').all() as { subject: string }[];
    expect(stored).toHaveLength(5);
    for (const { subject } of stored) expect(['alice', 'bob', 'carol', 'dave', 'erin'].some((name) => subject.includes(name))).toBe(false);
  });
});
