import { createRemoteJWKSet, jwtVerify } from 'jose';

/** What a verified token grants, in the shape both SDKs' bearer middleware take (`AuthInfo`). */
export interface GrantedToken {
  token: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource: URL;
  extra: { subject: string | undefined };
}

export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

/**
 * An MCP server's side of OAuth, as the authorization spec has it: a protected resource whose
 * identifier is the URL its clients use (the sidecar's, once it is in front), its metadata naming
 * the authorization server, and a verifier for its tokens: the issuer's keys for JWTs, or
 * introspection with the server's own credentials for opaque tokens. `revoke` makes the server
 * refuse a token from then on, as if it had expired, so a test decides when a client refreshes.
 */
export class OAuthResource {
  private resourceUrl: URL | undefined;
  private readonly revoked = new Set<string>();
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  /** Tokens the server accepted, in order: what reached it. */
  readonly accepted: GrantedToken[] = [];

  constructor(
    readonly issuer: string,
    private readonly mode: { kind: 'jwt' } | { kind: 'introspection'; clientId: string; clientSecret: string },
  ) {
    this.keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  }

  /** The public URL of the MCP endpoint: the resource identifier tokens must be issued for. */
  setResource(url: URL): void {
    this.resourceUrl = url;
  }

  resource(): URL {
    if (this.resourceUrl === undefined) throw new Error('the resource URL is not set yet');
    return this.resourceUrl;
  }

  metadataUrl(): string {
    return new URL(PROTECTED_RESOURCE_METADATA_PATH, this.resource()).href;
  }

  /** RFC 9728 metadata: this resource, its authorization server and scope. */
  metadata(): Record<string, unknown> {
    return { resource: this.resource().href, authorization_servers: [this.issuer], scopes_supported: ['mcp'], bearer_methods_supported: ['header'] };
  }

  revoke(token: string): void {
    this.revoked.add(token);
  }

  /** Verifies a token as the server sees it; throws (with a reason) for one it must refuse. */
  async verify(token: string): Promise<GrantedToken> {
    if (this.revoked.has(token)) throw new Error('token revoked');
    const granted = this.mode.kind === 'jwt' ? await this.verifyJwt(token) : await this.introspect(token, this.mode);
    this.accepted.push(granted);
    return granted;
  }

  private async verifyJwt(token: string): Promise<GrantedToken> {
    const { payload } = await jwtVerify(token, this.keys, { issuer: this.issuer, audience: this.resource().href, typ: 'at+jwt' });
    return {
      token,
      clientId: String(payload.client_id),
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
      expiresAt: payload.exp!,
      resource: this.resource(),
      extra: { subject: payload.sub },
    };
  }

  private async introspect(token: string, mode: { clientId: string; clientSecret: string }): Promise<GrantedToken> {
    const answer = await fetch(`${this.issuer}/token/introspection`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(mode.clientId)}:${encodeURIComponent(mode.clientSecret)}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token }),
    });
    const claims = (await answer.json()) as Record<string, unknown>;
    if (claims.active !== true) throw new Error('token inactive');
    if (claims.aud !== this.resource().href) throw new Error('token for another resource');
    return {
      token,
      clientId: String(claims.client_id),
      scopes: typeof claims.scope === 'string' ? claims.scope.split(' ') : [],
      expiresAt: Number(claims.exp),
      resource: this.resource(),
      extra: { subject: typeof claims.sub === 'string' ? claims.sub : undefined },
    };
  }
}
