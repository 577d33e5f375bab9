import type { IdentityConfig } from '../config/identity-schema.js';
import { createOAuthVerifier } from '../identity/create-oauth-verifier.js';
import { createCallerIdentifier, type CallerIdentifier } from '../sidecar/identify-caller.js';
import { AuthChallenge, challengeForResource } from '../sidecar/auth-challenge.js';

/**
 * The caller identifier the identity settings describe, keyed with the install's secret. OAuth
 * tokens are verified only when an issuer is configured: otherwise the mechanism costs nothing.
 */
export function callerIdentifierFromConfig(identity: IdentityConfig, secret: string): CallerIdentifier {
  const verifier = identity.oauth.issuers.length > 0 && identity.order.includes('oauth') ? createOAuthVerifier({ config: identity.oauth }) : undefined;
  return createCallerIdentifier({ secret, ...identity, ...(verifier === undefined ? {} : { verifier }) });
}

/**
 * How refused clients with no credential are asked to sign in: as the server asks (learned from its
 * 401s), and until it has been seen to, from the first configured issuer's resource identifier.
 */
export function authChallengeFromConfig(identity: IdentityConfig): AuthChallenge {
  const audience = identity.oauth.issuers[0]?.audience;
  const resource = Array.isArray(audience) ? audience[0] : audience;
  return new AuthChallenge(resource === undefined ? undefined : challengeForResource(resource));
}
