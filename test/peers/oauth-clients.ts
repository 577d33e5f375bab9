import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth as v1Auth, UnauthorizedError as V1UnauthorizedError, type OAuthClientProvider as V1Provider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider as V1ClientCredentials } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformation, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  Client as V2Client,
  ClientCredentialsProvider as V2ClientCredentials,
  StreamableHTTPClientTransport as V2HttpTransport,
  UnauthorizedError as V2UnauthorizedError,
  type OAuthClientProvider as V2Provider,
} from '@modelcontextprotocol/client';
import type { AuthorizationServer } from '../support/authorization-server.js';
import { CLIENT_INFO, textOf } from './clients.js';
import type { OAuthResource } from './oauth-resource.js';

/**
 * A person signing in to a host application (a public client) with the authorization-code flow:
 * the SDK asks to redirect, and this "browser" signs in as `login`, consents and hands back the code.
 * Every token set the SDK saves is kept, so a test can see refreshes happen.
 */
export class SignedInUser implements V1Provider {
  readonly saved: OAuthTokens[] = [];
  private verifier = '';
  private callback: Promise<URLSearchParams> | undefined;

  constructor(
    private readonly as: AuthorizationServer,
    readonly clientId: string,
    readonly login: string,
  ) {}

  get redirectUrl(): string {
    return this.as.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.clientId, redirect_uris: [this.as.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  clientInformation(): OAuthClientInformation {
    return { client_id: this.clientId };
  }

  tokens(): OAuthTokens | undefined {
    return this.saved.at(-1);
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved.push(tokens);
  }

  redirectToAuthorization(url: URL): void {
    this.callback = this.as.authorize(url, this.login);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  /** The parameters of the redirect the sign-in ended with (`code`, `iss`), once the SDK asked for one. */
  callbackParams(): Promise<URLSearchParams> {
    if (this.callback === undefined) throw new Error('the SDK never asked to sign in');
    return this.callback;
  }

  /** The access token in use now. */
  accessToken(): string {
    const token = this.tokens()?.access_token;
    if (token === undefined) throw new Error(`${this.login} holds no token yet`);
    return token;
  }
}

export interface ConnectedClient {
  /** Calls `add` and answers its text. */
  add(a: number, b: number): Promise<string>;
  /** The session id a legacy client was given (and presents on every request); undefined for a modern one. */
  sessionId(): string | undefined;
  close(): Promise<void>;
}

type AnyTransport = object;

/**
 * Connects an SDK client with an OAuth provider the way the SDKs document it: the first connect
 * is refused (401), the SDK runs the flow, the code is exchanged with `finishAuth`, and a new
 * transport connects with the token. A provider that needs no sign-in connects at once.
 */
async function connectThroughFlow<C extends { connect(t: never): Promise<void>; close(): Promise<void> }, T extends AnyTransport>(
  makeClient: () => C,
  makeTransport: () => T,
  user: SignedInUser | undefined,
  isUnauthorized: (error: unknown) => boolean,
  finishAuth: (transport: T, callback: URLSearchParams) => Promise<void>,
): Promise<{ client: C; transport: T }> {
  const transport = makeTransport();
  const client = makeClient();
  try {
    await client.connect(transport as never);
    return { client, transport };
  } catch (error) {
    if (user === undefined || !isUnauthorized(error)) throw error;
  }
  await finishAuth(transport, await user.callbackParams());
  const signedIn = makeTransport();
  const connected = makeClient();
  await connected.connect(signedIn as never);
  return { client: connected, transport: signedIn };
}

/** A legacy (v1 SDK) client over Streamable HTTP with sessions, authorized by `auth`. */
export async function connectV1(url: URL, auth: SignedInUser | { clientId: string; clientSecret: string }): Promise<ConnectedClient> {
  const provider: V1Provider = auth instanceof SignedInUser ? auth : new V1ClientCredentials({ clientId: auth.clientId, clientSecret: auth.clientSecret, scope: 'mcp' });
  const { client, transport } = await connectThroughFlow(
    () => new V1Client(CLIENT_INFO),
    () => new V1HttpTransport(url, { authProvider: provider }),
    auth instanceof SignedInUser ? auth : undefined,
    (error) => error instanceof V1UnauthorizedError,
    (transport, callback) => transport.finishAuth(callback.get('code')!),
  );
  return {
    add: async (a, b) => textOf(await client.callTool({ name: 'add', arguments: { a, b } })),
    sessionId: () => transport.sessionId,
    close: () => client.close(),
  };
}

/** A modern (v2 SDK, pinned to 2026-07-28) client, authorized by `auth`. */
export async function connectV2(url: URL, auth: SignedInUser | { clientId: string; clientSecret: string }): Promise<ConnectedClient> {
  const provider: V2Provider = auth instanceof SignedInUser ? (auth as unknown as V2Provider) : new V2ClientCredentials({ clientId: auth.clientId, clientSecret: auth.clientSecret, scope: 'mcp' });
  const { client } = await connectThroughFlow(
    () => new V2Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
    () => new V2HttpTransport(url, { authProvider: provider }),
    auth instanceof SignedInUser ? auth : undefined,
    (error) => error instanceof V2UnauthorizedError,
    // The v2 SDK checks the issuer the redirect names (RFC 9207) before it redeems the code.
    (transport, callback) => transport.finishAuth(callback),
  );
  return {
    add: async (a, b) => textOf(await client.callTool({ name: 'add', arguments: { a, b } })),
    sessionId: () => undefined,
    close: () => client.close(),
  };
}

/**
 * Signs a person in ahead of any MCP request with the v1 SDK's own `auth` (the resource's metadata
 * found from `url`, then the authorization-code flow), as a host that signed in earlier: its first
 * MCP request then carries a token, where a first connect would send none and wait for the 401.
 */
export async function signIn(user: SignedInUser, url: URL): Promise<SignedInUser> {
  const asked = await v1Auth(user, { serverUrl: url });
  if (asked !== 'REDIRECT') throw new Error(`the SDK did not ask ${user.login} to sign in (${asked})`);
  const finished = await v1Auth(user, { serverUrl: url, authorizationCode: (await user.callbackParams()).get('code')! });
  if (finished !== 'AUTHORIZED') throw new Error(`the SDK did not redeem ${user.login}'s code (${finished})`);
  return user;
}

/**
 * Calls `add(n, n)` for n = 1..times, each once the server stopped taking the token in use, so the
 * SDK refreshes it first; answers the results. Throws when a call went through on the old token.
 */
export async function callsAcrossRefreshes(client: ConnectedClient, user: SignedInUser, resource: OAuthResource, times: number): Promise<string[]> {
  const results: string[] = [];
  for (let n = 1; n <= times; n += 1) {
    const before = user.accessToken();
    resource.revoke(before);
    results.push(await client.add(n, n));
    if (user.accessToken() === before) throw new Error(`${user.login}'s token was not refreshed`);
  }
  return results;
}
