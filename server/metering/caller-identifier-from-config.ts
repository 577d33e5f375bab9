import type { IdentityConfig } from '../config/identity-schema.js';
import { createOAuthVerifier } from '../identity/create-oauth-verifier.js';
import { createCallerIdentifier, type CallerIdentifier } from '../sidecar/identify-caller.js';

/**
 * The caller identifier the identity settings describe, keyed with the install's secret. OAuth
 * tokens are verified only when an issuer is configured: otherwise the mechanism costs nothing.
 */
export function callerIdentifierFromConfig(identity: IdentityConfig, secret: string): CallerIdentifier {
  const verifier = identity.oauth.issuers.length > 0 && identity.order.includes('oauth') ? createOAuthVerifier({ config: identity.oauth }) : undefined;
  return createCallerIdentifier({ secret, ...identity, ...(verifier === undefined ? {} : { verifier }) });
}
