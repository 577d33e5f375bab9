import { z } from 'zod';

export const IDENTITY_MECHANISMS = ['gateway-header', 'static-map', 'oauth', 'mtls', 'bearer'] as const;

const positiveInt = z.coerce.number().int().positive();
const httpUrl = z.url({ protocol: /^https?$/, message: 'expected an http:// or https:// URL' });

/** Signature algorithms an access token may use: public-key ones only, so nobody but the issuer can sign. */
export const ACCESS_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

const introspectionSchema = z
  .object({
    endpoint: httpUrl.optional().describe('The introspection endpoint (RFC 7662); absent, the one the issuer\'s metadata names.'),
    clientId: z.string().min(1).describe('The sidecar\'s own client id at the authorization server, sent with HTTP Basic authentication.'),
    clientSecret: z.string().min(1).describe('Its secret. Keep the configuration file that holds it readable by the service only.'),
  })
  .strict();

const issuerSchema = z
  .object({
    issuer: httpUrl.describe('The issuer identifier, exactly as tokens carry it in `iss` and as its metadata names it.'),
    audience: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .describe('This server\'s resource identifier (RFC 8707), as tokens carry it in `aud`: a token for another resource names nobody.'),
    jwksUri: httpUrl.optional().describe('Where the issuer\'s signing keys are; absent, the `jwks_uri` of its metadata (RFC 8414, else OpenID discovery).'),
    algorithms: z
      .array(z.enum(ACCESS_TOKEN_ALGORITHMS))
      .min(1)
      .default(['RS256', 'PS256', 'ES256', 'EdDSA'])
      .describe('Signature algorithms accepted; `none` and shared-secret algorithms never are.'),
    tokenType: z
      .enum(['at+jwt', 'any'])
      .default('at+jwt')
      .describe('`at+jwt` accepts only JWTs typed as access tokens (RFC 9068), so an ID token is never taken for one; `any` for issuers that do not type them.'),
    introspection: introspectionSchema.optional().describe('Identifies opaque (non-JWT) tokens by asking the issuer (RFC 7662) with the sidecar\'s own client credentials.'),
  })
  .strict();

const clientNamesSchema = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        'Fetch the Client ID Metadata Document of each OAuth caller whose client_id is an https:// URL, and show its `client_name` beside the URL. '
        + 'Only where `alerts.scheduled` is on; the name is the application\'s own claim and decides nothing.',
      ),
    allowPrivateAddresses: z
      .boolean()
      .default(false)
      .describe('Also fetch from loopback, private, link-local and other non-public addresses. Off, a client_id whose host is (or resolves to) one is not fetched at all.'),
    caFile: z.string().min(1).optional().describe('CA certificates (a PEM file) trusted for these fetches besides the system ones, for clients whose documents an internal CA signed.'),
    refreshHours: positiveInt
      .max(24 * 365)
      .default(24)
      .describe('How old a fetched name may grow before it is fetched again; a fetch that failed is tried again after an hour.'),
  })
  .strict();

const oauthSchema = z
  .object({
    issuers: z
      .array(issuerSchema)
      .default([])
      .refine((issuers) => new Set(issuers.map((i) => i.issuer)).size === issuers.length, 'each issuer once')
      .describe('The authorization servers whose tokens name callers; a token from any other names nobody.'),
    waitMs: positiveInt
      .max(10_000)
      .default(500)
      .describe('How long a request carrying a token not seen before may wait for it to be verified; then it goes on, named by the next mechanism.'),
    timeoutMs: positiveInt.default(5_000).describe('Deadline of each request to an authorization server (metadata, keys, introspection), and of each fetch of a client\'s metadata document.'),
    keysRefreshMs: positiveInt.default(3_600_000).describe('How often each issuer\'s keys are fetched again in the background; a token signed by an unknown key fetches them at once (at most every 30 s).'),
    cacheSize: positiveInt.default(20_000).describe('Tokens whose verdict is remembered (until their `exp`); the least recently used goes first.'),
    clientNames: clientNamesSchema
      .default(clientNamesSchema.parse({}))
      .describe('The name an OAuth application gives itself in its Client ID Metadata Document, fetched in the background with no redirect, bounded in time (`identity.oauth.timeoutMs`) and size (5 KiB).'),
  })
  .strict()
  .describe('OAuth access tokens as a trusted mechanism: verified against the issuers named here, they name the OAuth client (RFC 9068 `client_id`, else `azp`).');

export const identitySchema = z
  .object({
    order: z
      .array(z.enum(IDENTITY_MECHANISMS))
      .min(1)
      .default(['gateway-header', 'static-map', 'oauth', 'mtls', 'bearer'])
      .describe('Trusted mechanisms, tried in this order; a request none of them identifies is anonymous.'),
    gatewayHeader: z.string().min(1).toLowerCase().default('x-mcp-integration').describe('Header a gateway sets to name the caller; honoured only from trustedProxies.'),
    trustedProxies: z.array(z.string().min(1)).default([]).describe('Addresses or CIDRs of the gateways allowed to set gatewayHeader (proxy-addr syntax).'),
    apiKeyHeader: z.string().min(1).toLowerCase().default('x-api-key').describe('Header carrying an API key, for the static map.'),
    staticMap: z.record(z.string().min(1), z.string().min(1).max(128)).default({}).describe('API key value, or a tok_… fingerprint, → integration name.'),
    oauth: oauthSchema.default(oauthSchema.parse({})),
  })
  .strict()
  .describe('How callers are identified, by trusted mechanisms only.');

export type IdentityConfig = z.infer<typeof identitySchema>;
export type OAuthConfig = IdentityConfig['oauth'];
export type OAuthIssuerConfig = OAuthConfig['issuers'][number];
