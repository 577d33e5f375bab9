import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type ClientMetadata } from 'oidc-provider';

/** A client the authorization server knows, and what it may do. */
export interface RegisteredClient {
  clientId: string;
  /** Absent: a public client (PKCE, no secret), as a desktop host is. */
  clientSecret?: string;
  grants: readonly ('client_credentials' | 'authorization_code' | 'refresh_token')[];
}

export interface AuthorizationServerOptions {
  clients: readonly RegisteredClient[];
  /** `jwt`: RFC 9068 JWT access tokens; `opaque`: random strings only introspection can read. */
  accessTokenFormat: 'jwt' | 'opaque';
  /** The MCP server's resource identifier, used when a client names none. */
  resource: () => string;
  accessTokenTtlS?: number;
}

export interface AuthorizationServer {
  issuer: string;
  /** The signing key the server publishes (the private half, so tests can forge with its kid). */
  signingKey: JWK;
  /** The redirect URI every client is registered with. */
  redirectUri: string;
  /**
   * Follows an authorization URL the way a browser and its user would with the development
   * interactions: signs in as `login`, consents, and answers the parameters of the redirect to the
   * client (`code`, and `iss` as RFC 9207 has the server send it).
   */
  authorize(authorizationUrl: URL, login: string): Promise<URLSearchParams>;
  /** Stops answering (connections cut), keeping every grant and token for `start`. */
  stop(): Promise<void>;
  /** Answers again, on the same port, with the same grants and tokens. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const REDIRECT_URI = 'http://127.0.0.1:1/callback';

/**
 * A real OpenID-certified authorization server (oidc-provider) on loopback, issuing access tokens
 * for one MCP resource (RFC 8707), with client credentials, the authorization-code flow with its
 * development sign-in pages (driven headlessly by `authorize`), refresh tokens and introspection.
 */
export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  let handler: RequestListener | undefined;
  const server: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'as-key-1', alg: 'RS256', use: 'sig' };
  const clients: ClientMetadata[] = options.clients.map((client) => ({
    client_id: client.clientId,
    ...(client.clientSecret === undefined ? { token_endpoint_auth_method: 'none' } : { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
    grant_types: [...client.grants],
    response_types: client.grants.includes('authorization_code') ? ['code'] : [],
    redirect_uris: client.grants.includes('authorization_code') ? [REDIRECT_URI] : [],
  }));
  const ttl = options.accessTokenTtlS ?? 3600;
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys: [signingKey] },
    scopes: ['openid', 'offline_access', 'mcp'],
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? options.resource(),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: 'mcp',
          audience: resourceIndicator,
          accessTokenTTL: ttl,
          accessTokenFormat: options.accessTokenFormat,
          ...(options.accessTokenFormat === 'jwt' ? { jwt: { sign: { alg: 'RS256' as const } } } : {}),
        }),
      },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    cookies: { keys: ['authorization-server-test-cookie-key'] },
    // Every lifetime stated, so the server does not warn about its defaults.
    ttl: { AccessToken: ttl, ClientCredentials: ttl, AuthorizationCode: 60, RefreshToken: 86_400, Grant: 86_400, Interaction: 600, Session: 86_400, IdToken: 3600 },
    pkce: { required: () => true },
    clientBasedCORS: () => true,
  });
  const callback = provider.callback();
  let answering = true;
  handler = (req, res) => {
    if (!answering) return void res.destroy();
    callback(req, res);
  };

  return {
    issuer,
    signingKey,
    redirectUri: REDIRECT_URI,
    authorize: (url, login) => authorizeHeadlessly(url, login),
    async stop() {
      answering = false;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      answering = true;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async close() {
      answering = false;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One browser's cookie jar: enough for the sign-in pages' interaction and session cookies. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The authorization-code flow's browser half: sign in, consent, and read the code off the last redirect. */
async function authorizeHeadlessly(start: URL, login: string): Promise<URLSearchParams> {
  const jar = new CookieJar();
  let url = start;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, { headers: { cookie: jar.header() }, redirect: 'manual' });
    jar.take(response);
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (location === null) throw new Error(`the authorization server stopped at ${url.pathname} with HTTP ${response.status}`);
    const next = new URL(location, url);
    if (next.href.startsWith(REDIRECT_URI)) {
      if (next.searchParams.get('code') === null) throw new Error(`the authorization server redirected without a code: ${next.search}`);
      return next.searchParams;
    }
    if (next.pathname.startsWith('/interaction/')) {
      // The development pages: a GET shows the prompt; a POST answers it (sign in, then consent).
      const page = await fetch(next, { headers: { cookie: jar.header() }, redirect: 'manual' });
      jar.take(page);
      const html = await page.text();
      const prompt = html.includes('name="login"') ? 'login' : 'consent';
      const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
      const submitted = await fetch(next, { method: 'POST', headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
      jar.take(submitted);
      await submitted.body?.cancel();
      const after = submitted.headers.get('location');
      if (after === null) throw new Error(`the ${prompt} page answered HTTP ${submitted.status} without a redirect`);
      url = new URL(after, next);
      continue;
    }
    url = next;
  }
  throw new Error('the authorization flow did not end in a redirect with a code');
}
