import type { Dispatcher } from 'undici';
import type { OAuthIssuerConfig } from '../config/identity-schema.js';
import { fetchJson, FetchProblem } from './fetch-json.js';
import type { TokenVerdict } from './oauth-identity.js';
import { CLOCK_TOLERANCE_S } from './verify-jwt-access-token.js';

const MAX_INTROSPECTION_BYTES = 64 * 1024;

function audiences(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** RFC 6749 section 2.3.1: client credentials in Basic are form-encoded before they are joined. */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

/**
 * Asks the issuer about an opaque token (RFC 7662) with the sidecar's own client credentials. An
 * active token must be this issuer's (`iss`, when answered), for this resource (`aud`), unexpired,
 * and name its client. An issuer that cannot be asked, or refuses the sidecar's credentials, gives
 * `unavailable`: that says nothing about the token. Never throws.
 */
export async function introspectAccessToken(
  token: string,
  issuer: OAuthIssuerConfig,
  endpoint: string,
  options: { timeoutMs: number; now: number; dispatcher?: Dispatcher },
): Promise<TokenVerdict> {
  const introspection = issuer.introspection!;
  let answer;
  try {
    answer = await fetchJson(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuthorization(introspection.clientId, introspection.clientSecret) },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_INTROSPECTION_BYTES,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
  } catch (error) {
    return { kind: 'unavailable', why: error instanceof FetchProblem ? error.message : String(error) };
  }
  if (answer.status !== 200 || typeof answer.json !== 'object' || answer.json === null) return { kind: 'unavailable', why: `introspection answered HTTP ${answer.status}` };
  const claims = answer.json as Record<string, unknown>;
  if (claims.active !== true) return { kind: 'rejected', reason: 'inactive' };
  if (claims.iss !== undefined && claims.iss !== issuer.issuer) return { kind: 'rejected', reason: 'inactive' };
  const wanted = audiences(issuer.audience);
  if (!audiences(claims.aud).some((aud) => wanted.includes(aud))) return { kind: 'rejected', reason: 'wrong-audience' };
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp * 1000 <= options.now - CLOCK_TOLERANCE_S * 1000)) return { kind: 'rejected', reason: 'expired' };
  if (typeof claims.nbf === 'number' && claims.nbf * 1000 > options.now + CLOCK_TOLERANCE_S * 1000) return { kind: 'rejected', reason: 'not-yet-valid' };
  const clientId = typeof claims.client_id === 'string' && claims.client_id !== '' ? claims.client_id : undefined;
  if (clientId === undefined) return { kind: 'rejected', reason: 'no-client' };
  const subject = typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
  return { kind: 'verified', identity: { issuer: issuer.issuer, clientId, subject, expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : undefined } };
}
