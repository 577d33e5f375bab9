import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { identitySchema, type OAuthConfig } from '../../server/config/identity-schema.js';
import { createOAuthVerifier, type OAuthVerifier } from '../../server/identity/create-oauth-verifier.js';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
const CRM = { clientId: 'https://crm.example/client.json', clientSecret: 'crm-secret-0123456789', grants: ['client_credentials'] as const };
const DESK = { clientId: 'https://desk.example/client.json', grants: ['authorization_code', 'refresh_token'] as const };
const SUNSET = { clientId: 'mcp-sunset-introspector', clientSecret: 'sunset-secret-0123456789', grants: ['client_credentials'] as const };

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** A client-credentials token of the CRM client, for a resource. */
async function clientToken(as: AuthorizationServer, resource = RESOURCE): Promise<string> {
  const answer = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: { authorization: basic(CRM.clientId, CRM.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: 'mcp' }),
  });
  const body = (await answer.json()) as { access_token?: string };
  if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A person's token for the desk app, through the authorization-code flow as a browser would go through it. */
async function userToken(as: AuthorizationServer, login: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${as.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: DESK.clientId, response_type: 'code', redirect_uri: as.redirectUri, scope: 'mcp', resource: RESOURCE, state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  }).toString();
  const code = (await as.authorize(url, login)).get('code')!;
  const answer = await fetch(`${as.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: as.redirectUri, code_verifier: verifier, client_id: DESK.clientId, resource: RESOURCE }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

function oauthConfig(issuers: unknown[], extra: Record<string, unknown> = {}): OAuthConfig {
  return identitySchema.parse({ oauth: { issuers, ...extra } }).oauth;
}

describe('createOAuthVerifier against a real authorization server issuing JWT access tokens', () => {
  let as: AuthorizationServer;
  let verifier: OAuthVerifier;
  beforeAll(async () => {
    as = await startAuthorizationServer({ clients: [CRM, DESK, SUNSET], accessTokenFormat: 'jwt', resource: () => RESOURCE });
    verifier = createOAuthVerifier({ config: oauthConfig([{ issuer: as.issuer, audience: RESOURCE }]) });
  });
  afterAll(async () => {
    verifier?.close();
    await as?.close();
  });

  test('a client-credentials token names its client, and the client is its own subject', async () => {
    const verdict = await verifier.verify(await clientToken(as));
    expect(verdict).toEqual({ kind: 'verified', identity: { issuer: as.issuer, clientId: CRM.clientId, subject: CRM.clientId, expiresAt: expect.any(Number) } });
  });

  test('a person\'s token from the authorization-code flow names the application and the person', async () => {
    const verdict = await verifier.verify(await userToken(as, 'alice'));
    expect(verdict).toMatchObject({ kind: 'verified', identity: { clientId: DESK.clientId, subject: 'alice' } });
  });

  test('a verdict is remembered: the hot path reads it without waiting, and nothing is asked twice', async () => {
    const token = await clientToken(as);
    expect(verifier.verdictOf(token)).toBeUndefined();
    const waiting = verifier.prepare(token);
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    expect(verifier.verdictOf(token)).toMatchObject({ kind: 'verified' });
    expect(verifier.prepare(token)).toBeUndefined();
  });

  describe('tokens that must name nobody', () => {
    const forged = async (header: Record<string, unknown>, claims: Record<string, unknown>, key: Parameters<SignJWT["sign"]>[0]) =>
      new SignJWT({ client_id: CRM.clientId, sub: 'mallory', scope: 'mcp', ...claims }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', ...header }).sign(key);
    const now = () => Math.floor(Date.now() / 1000);
    const base = () => ({ iss: as.issuer, aud: RESOURCE, iat: now(), exp: now() + 600 });

    test('signed by another key under the issuer\'s key id', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      expect(await verifier.verify(await forged({ kid: as.signingKey.kid }, base(), privateKey))).toEqual({ kind: 'rejected', reason: 'bad-signature' });
    });

    test('signed by another key under a key id the issuer never published (its keys are fetched again, then it is refused)', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      expect(await verifier.verify(await forged({ kid: 'attacker-key' }, base(), privateKey))).toEqual({ kind: 'rejected', reason: 'bad-signature' });
    });

    test('expired, though signed by the issuer', async () => {
      const key = await importJWK(as.signingKey, 'RS256');
      expect(await verifier.verify(await forged({ kid: as.signingKey.kid }, { ...base(), iat: now() - 7200, exp: now() - 3600 }, key as never))).toEqual({ kind: 'rejected', reason: 'expired' });
    });

    test('issued for another resource', async () => {
      expect(await verifier.verify(await clientToken(as, 'http://127.0.0.1:9/other'))).toEqual({ kind: 'rejected', reason: 'wrong-audience' });
    });

    test('unsigned (alg none)', async () => {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode({ ...base(), client_id: CRM.clientId, sub: 'mallory' })}.`;
      expect(await verifier.verify(unsigned)).toMatchObject({ kind: 'rejected' });
    });

    test('from an issuer that is not configured, with keys of its own', async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256');
      void (await exportJWK(publicKey));
      expect(await verifier.verify(await forged({ kid: 'k' }, { ...base(), iss: 'http://127.0.0.1:1/other-issuer' }, privateKey))).toEqual({ kind: 'rejected', reason: 'unknown-issuer' });
    });

    test('an ID-token-shaped JWT (typed JWT, not at+jwt), though signed by the issuer', async () => {
      const key = await importJWK(as.signingKey, 'RS256');
      expect(await verifier.verify(await forged({ kid: as.signingKey.kid, typ: 'JWT' }, base(), key as never))).toEqual({ kind: 'rejected', reason: 'wrong-type' });
    });

    test('an opaque string, with no issuer configured to introspect it', async () => {
      expect(await verifier.verify('not-a-jwt-at-all')).toEqual({ kind: 'rejected', reason: 'not-a-token' });
    });
  });
});

describe('createOAuthVerifier with opaque tokens and introspection', () => {
  let as: AuthorizationServer;
  let verifier: OAuthVerifier;
  beforeAll(async () => {
    as = await startAuthorizationServer({ clients: [CRM, DESK, SUNSET], accessTokenFormat: 'opaque', resource: () => RESOURCE });
    verifier = createOAuthVerifier({
      config: oauthConfig([{ issuer: as.issuer, audience: RESOURCE, introspection: { clientId: SUNSET.clientId, clientSecret: SUNSET.clientSecret } }], { waitMs: 300, timeoutMs: 2_000 }),
    });
  });
  afterAll(async () => {
    verifier?.close();
    await as?.close();
  });

  test('an opaque token is identified by introspection with the sidecar\'s own credentials', async () => {
    const token = await clientToken(as);
    expect(token.split('.')).toHaveLength(1);
    expect(await verifier.verify(token)).toMatchObject({ kind: 'verified', identity: { issuer: as.issuer, clientId: CRM.clientId } });
    expect(await verifier.verify(await userToken(as, 'bob'))).toMatchObject({ kind: 'verified', identity: { clientId: DESK.clientId, subject: 'bob' } });
  });

  test('a made-up token is inactive, and names nobody', async () => {
    expect(await verifier.verify(randomBytes(32).toString('base64url'))).toEqual({ kind: 'rejected', reason: 'inactive' });
  });

  test('an issuer that is down: a new token waits at most waitMs, is judged unavailable (never rejected), and is identified once the issuer is back', async () => {
    const token = await clientToken(as);
    await as.stop();
    try {
      // The wait ends (at the latest after waitMs) with no verdict held against the token.
      await verifier.prepare(token);
      expect(verifier.verdictOf(token)).toBeUndefined();
      expect(await verifier.verify(token)).toMatchObject({ kind: 'unavailable' });
      expect(verifier.health().issuers[0]).toMatchObject({ reachable: false, lastError: expect.any(String) });
    } finally {
      await as.start();
    }
    // Identification resumes once the issuer answers again (after its back-off).
    await expect.poll(async () => (await verifier.verify(token)).kind, { timeout: 30_000, interval: 250 }).toBe('verified');
  });

  test('an issuer that is down shows unreachable until it answers again, not only while it is left alone', async () => {
    let clock = Date.now();
    const local = createOAuthVerifier({
      config: oauthConfig([{ issuer: as.issuer, audience: RESOURCE, introspection: { clientId: SUNSET.clientId, clientSecret: SUNSET.clientSecret } }], { timeoutMs: 2_000 }),
      now: () => clock,
    });
    try {
      expect(await local.verify(await clientToken(as))).toMatchObject({ kind: 'verified' });
      const token = await clientToken(as);
      await as.stop();
      try {
        expect(await local.verify(token)).toMatchObject({ kind: 'unavailable' });
        // Past any back-off: the issuer may be asked again, but nothing says it answers.
        clock += 120_000;
        expect(local.health().issuers[0]).toMatchObject({ reachable: false, lastError: expect.any(String) });
      } finally {
        await as.start();
      }
      expect(await local.verify(token)).toMatchObject({ kind: 'verified' });
      expect(local.health().issuers[0]).toMatchObject({ reachable: true, lastError: null });
    } finally {
      local.close();
    }
  });
});
