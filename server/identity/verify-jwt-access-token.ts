import { errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { OAuthIssuerConfig } from '../config/identity-schema.js';
import type { OAuthIdentity, TokenRejection } from './oauth-identity.js';

/** A JWT's verdict, or `no-key`: no key of the issuer's known set has its `kid` (fetch them again, then retry). */
export type JwtVerdict = { kind: 'verified'; identity: OAuthIdentity } | { kind: 'rejected'; reason: TokenRejection } | { kind: 'no-key' };

/** Leeway for `exp` and `nbf` between the issuer's clock and this one. */
export const CLOCK_TOLERANCE_S = 30;

function rejectionOf(error: unknown): JwtVerdict {
  if (error instanceof errors.JWKSNoMatchingKey) return { kind: 'no-key' };
  if (error instanceof errors.JWTExpired) return { kind: 'rejected', reason: 'expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return { kind: 'rejected', reason: 'not-yet-valid' };
      case 'aud':
        return { kind: 'rejected', reason: 'wrong-audience' };
      case 'iss':
        return { kind: 'rejected', reason: 'unknown-issuer' };
      case 'typ':
        return { kind: 'rejected', reason: 'wrong-type' };
      default:
        return { kind: 'rejected', reason: 'malformed' };
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return { kind: 'rejected', reason: 'bad-signature' };
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return { kind: 'rejected', reason: 'algorithm' };
  return { kind: 'rejected', reason: 'malformed' };
}

/**
 * Verifies a JWT access token (RFC 9068) of one configured issuer with its keys: the signature by
 * an accepted algorithm, `iss`, `aud` (this server's resource), `exp` and `nbf` against `now`, and
 * the `at+jwt` type where required. The client is `client_id`, else `azp`. Never throws.
 */
export async function verifyJwtAccessToken(token: string, issuer: OAuthIssuerConfig, keys: JWTVerifyGetKey, now: number): Promise<JwtVerdict> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      issuer: issuer.issuer,
      audience: issuer.audience,
      algorithms: [...issuer.algorithms],
      ...(issuer.tokenType === 'at+jwt' ? { typ: 'at+jwt' } : {}),
      currentDate: new Date(now),
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    return rejectionOf(error);
  }
  const clientId = typeof payload.client_id === 'string' && payload.client_id !== '' ? payload.client_id : typeof payload.azp === 'string' && payload.azp !== '' ? payload.azp : undefined;
  if (clientId === undefined) return { kind: 'rejected', reason: 'no-client' };
  const subject = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : undefined;
  return { kind: 'verified', identity: { issuer: issuer.issuer, clientId, subject, expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined } };
}
