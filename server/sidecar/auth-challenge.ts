import type { HttpRefusal } from '../protocol/policy-refusal.js';

const MAX_CHALLENGE_CHARS = 2048;
const BEARER = /^bearer(\s|$)/i;

/**
 * How the server asks a client with no credential to sign in: the `WWW-Authenticate` of the last
 * 401 it answered to an MCP request that carried no `Authorization`, else one made from the
 * resource identifier the sidecar was configured with (RFC 9728: its metadata sits at the
 * well-known path of that URL). Only a Bearer challenge of bounded length is kept.
 */
export class AuthChallenge {
  private learned: string | undefined;

  constructor(private readonly configured: string | undefined) {}

  /** Takes the server's answer to a request: a 401 to one without a credential says how to sign in. */
  observe(status: number, requestHadCredential: boolean, wwwAuthenticate: string | string[] | undefined): void {
    if (status !== 401 || requestHadCredential) return;
    const value = Array.isArray(wwwAuthenticate) ? wwwAuthenticate[0] : wwwAuthenticate;
    if (value === undefined || value.length > MAX_CHALLENGE_CHARS || !BEARER.test(value) || /[\r\n]/.test(value)) return;
    this.learned = value;
  }

  current(): string | undefined {
    return this.learned ?? this.configured;
  }
}

/** The challenge RFC 9728 has a resource server send, for its resource identifier (an http(s) URL). */
export function challengeForResource(resource: string): string | undefined {
  const url = URL.parse(resource);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  const path = url.pathname === '/' ? '' : url.pathname;
  return `Bearer resource_metadata="${url.origin}/.well-known/oauth-protected-resource${path}"`;
}

/**
 * What a request with no credential gets instead of a plan's refusal when the server requires one:
 * the server's own 401 and its challenge, so the client signs in first. Once signed in, its requests
 * name the application, and the plan decides them by it (an exempt application passes). Nothing of
 * it reaches the server either way.
 */
export function challengeRefusal(challenge: string): HttpRefusal {
  const body = { error: 'invalid_token', error_description: 'mcp-sunset: this server requires authorization; sign in, then send the request again' };
  return { status: 401, headers: ['WWW-Authenticate', challenge], contentType: 'application/json', body: JSON.stringify(body) };
}
