/** What a verified access token names: the application (OAuth client) and, when it has one, the person. */
export interface OAuthIdentity {
  /** The issuer that vouched for the token (a configured one). */
  issuer: string;
  /** The OAuth client: RFC 9068 `client_id`, else `azp`. */
  clientId: string;
  /** The token's `sub`: the person, or the client itself for a client-credentials token. Never stored raw. */
  subject: string | undefined;
  /** The token's `exp` in epoch ms, when it has one. */
  expiresAt: number | undefined;
}

/**
 * Why a token names nobody through OAuth. Each is final for that token (it is remembered):
 * - `not-a-token`: no bearer token, or one no configured issuer could have issued (an opaque token with no introspection configured).
 * - `unknown-issuer`: a JWT whose `iss` is not configured.
 * - `malformed`: not a well-formed JWT, or claims of the wrong types.
 * - `algorithm`: signed with an algorithm not accepted (`none`, a shared secret, or one not listed).
 * - `wrong-type`: not typed `at+jwt` where the issuer requires it (an ID token, say).
 * - `bad-signature`: no key of the issuer verifies it.
 * - `expired`, `not-yet-valid`: outside its `exp` / `nbf`.
 * - `wrong-audience`: for another resource.
 * - `no-client`: names no client (`client_id` nor `azp`).
 * - `inactive`: introspection answered `active: false`, or for another issuer.
 */
export type TokenRejection =
  | 'not-a-token'
  | 'unknown-issuer'
  | 'malformed'
  | 'algorithm'
  | 'wrong-type'
  | 'bad-signature'
  | 'expired'
  | 'not-yet-valid'
  | 'wrong-audience'
  | 'no-client'
  | 'inactive';

/**
 * A verdict on one token. `unavailable` is not final: the issuer could not be asked (down, slow,
 * its keys not known yet), so the token is neither trusted nor held against its caller.
 */
export type TokenVerdict =
  | { kind: 'verified'; identity: OAuthIdentity }
  | { kind: 'rejected'; reason: TokenRejection }
  | { kind: 'unavailable'; why: string };
