import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { LRUCache } from 'lru-cache';
import proxyaddr from 'proxy-addr';
import { capText } from '../protocol/cap-text.js';
import type { OAuthHealth, OAuthVerifier } from '../identity/create-oauth-verifier.js';
import type { OAuthIdentity } from '../identity/oauth-identity.js';
import { oauthCallerKey, subjectDigest } from '../identity/oauth-caller-key.js';
import { readBearerToken } from '../identity/read-bearer-token.js';

export const CALLER_SOURCES = ['gateway-header', 'static-map', 'oauth', 'bearer-fingerprint', 'mtls-subject', 'configured-name', 'anonymous'] as const;

export interface Caller {
  /** The integration key: a fingerprint or a configured name, never the credential itself. */
  integration: string;
  source: (typeof CALLER_SOURCES)[number];
  /** The person behind a verified OAuth token, as a keyed digest of its `sub` (never the raw subject). */
  subject?: string;
  /**
   * Set when the request carried a token a configured issuer may vouch for that could not be
   * verified in time (the issuer slow or down): the caller is whoever the next mechanism names, and
   * block-new does not refuse it, since the sidecar cannot tell whether its application is new.
   */
  unverified?: true;
  /** Set on one exchange's copy when a plan in dry run would refuse it. */
  wouldBlock?: boolean;
  /**
   * For a request no mechanism names: its `User-Agent`, cut to 256 characters, to describe the
   * unknown base when its client claims nothing else. A claim: it never names or decides anything.
   */
  userAgent?: string;
}

export const ANONYMOUS: Caller = { integration: 'anonymous', source: 'anonymous' };

export type IdentityMechanism = 'gateway-header' | 'static-map' | 'oauth' | 'bearer' | 'mtls';

export interface CallerIdentityOptions {
  /** The per-install secret fingerprints are keyed with. */
  secret: string;
  order: readonly IdentityMechanism[];
  gatewayHeader: string;
  /** Gateways allowed to set the header (addresses or CIDRs, proxy-addr syntax). */
  trustedProxies: readonly string[];
  apiKeyHeader: string;
  /** API key value, or a tok_… fingerprint, → integration name. */
  staticMap: Readonly<Record<string, string>>;
  cacheSize?: number;
  /** Verifies OAuth access tokens; absent, the `oauth` mechanism names nobody. */
  verifier?: OAuthVerifier;
}

/**
 * Identifies a request's caller. Sync, so the hot path never waits: `ready` is what a request with
 * a token not verified yet may wait for first (bounded), and `bindingOf` says what a bridged
 * session is bound to.
 */
export interface CallerIdentifier {
  (req: IncomingMessage): Caller;
  /** A bounded wait for the request's token to be verified, or undefined when there is nothing to wait for. */
  ready(req: IncomingMessage): Promise<void> | undefined;
  /**
   * What a session opened with this request is bound to: the application and person a verified
   * OAuth token names (so a refreshed token keeps the session), else the `Authorization` itself.
   */
  bindingOf(req: IncomingMessage): string | undefined;
  /** The OAuth verification's state; null when no issuer is configured. */
  health(): OAuthHealth | null;
  close(): void;
}

const MAX_NAME = 128;
const MAX_USER_AGENT = 256;
/** What the `oauth` mechanism answers for a token it has no verdict on yet. */
const UNRESOLVED = Symbol('unresolved');

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Identifies callers by trusted mechanisms only, in the configured order: a gateway's header (only
 * from a trusted proxy address), an operator's static map, the bearer token's HMAC fingerprint,
 * the mTLS client certificate. Self-reported clientInfo is deliberately not an input.
 */
export function createCallerIdentifier(options: CallerIdentityOptions): CallerIdentifier {
  const trust = proxyaddr.compile([...options.trustedProxies]);
  // The key looked up is whatever a client sent: in a plain object, `constructor` or `__proto__`
  // would find a built-in and make a function the caller. A Map holds only what the operator wrote.
  const staticMap = new Map(Object.entries(options.staticMap));
  // Callers reuse one token for many requests; an HMAC per request would be most of the cost.
  // The cache lives in memory only, like the request headers it is keyed by.
  const fingerprints = new LRUCache<string, string>({ max: options.cacheSize ?? 1024 });
  const fingerprintOf = (authorization: string | undefined): string | undefined => {
    if (authorization === undefined) return undefined;
    const cached = fingerprints.get(authorization);
    if (cached !== undefined) return cached;
    const token = readBearerToken(authorization);
    if (token === undefined) return undefined;
    const fingerprint = `tok_${createHmac('sha256', options.secret).update(token).digest('hex').slice(0, 16)}`;
    fingerprints.set(authorization, fingerprint);
    return fingerprint;
  };
  const { verifier } = options;
  // One caller per verified token, made once: the digest of its subject is an HMAC.
  const oauthCallers = new WeakMap<OAuthIdentity, Caller>();
  const oauthCallerOf = (identity: OAuthIdentity): Caller => {
    let caller = oauthCallers.get(identity);
    if (caller === undefined) {
      caller = Object.freeze({
        integration: oauthCallerKey(identity.clientId),
        source: 'oauth' as const,
        ...(identity.subject === undefined ? {} : { subject: subjectDigest(options.secret, identity.issuer, identity.subject) }),
      });
      oauthCallers.set(identity, caller);
    }
    return caller;
  };
  const tokenOf = (req: IncomingMessage): string | undefined => (verifier === undefined ? undefined : readBearerToken(req.headers.authorization));

  const mechanisms: Record<IdentityMechanism, (req: IncomingMessage) => Caller | typeof UNRESOLVED | undefined> = {
    'gateway-header': (req) => {
      const name = headerOf(req, options.gatewayHeader)?.trim();
      if (!name || name.length > MAX_NAME) return undefined;
      const peer = req.socket.remoteAddress;
      return peer !== undefined && trust(peer, 0) ? { integration: name, source: 'gateway-header' } : undefined;
    },
    'static-map': (req) => {
      const apiKey = headerOf(req, options.apiKeyHeader);
      const byKey = apiKey === undefined ? undefined : staticMap.get(apiKey);
      const fingerprint = fingerprintOf(req.headers.authorization);
      const name = byKey ?? (fingerprint === undefined ? undefined : staticMap.get(fingerprint));
      return name === undefined ? undefined : { integration: name, source: 'static-map' };
    },
    oauth: (req) => {
      const token = tokenOf(req);
      if (token === undefined) return undefined;
      const verdict = verifier!.verdictOf(token);
      if (verdict === undefined) return UNRESOLVED;
      // A rejected token names nobody here: an exemption rides on the name, so only a verified one may.
      return verdict.kind === 'verified' ? oauthCallerOf(verdict.identity) : undefined;
    },
    bearer: (req) => {
      const fingerprint = fingerprintOf(req.headers.authorization);
      return fingerprint === undefined ? undefined : { integration: fingerprint, source: 'bearer-fingerprint' };
    },
    mtls: (req) => {
      const socket = req.socket as Partial<TLSSocket>;
      if (socket.authorized !== true || socket.getPeerCertificate === undefined) return undefined;
      const cn = socket.getPeerCertificate().subject?.CN;
      const name = Array.isArray(cn) ? cn[0] : cn;
      return name ? { integration: `mtls:${capText(name, MAX_NAME)}`, source: 'mtls-subject' } : undefined;
    },
  };
  const ordered = options.order.map((mechanism) => mechanisms[mechanism]);

  const identify = (req: IncomingMessage): Caller => {
    let unverified = false;
    for (const mechanism of ordered) {
      const caller = mechanism(req);
      if (caller === UNRESOLVED) unverified = true;
      else if (caller !== undefined) return unverified ? { ...caller, unverified: true } : caller;
    }
    // Nobody: what the client says it is (its User-Agent) is kept as a claim, to describe the unknown base.
    const agent = req.headers['user-agent'];
    if (!unverified && agent === undefined) return ANONYMOUS;
    return { ...ANONYMOUS, ...(unverified ? { unverified: true as const } : {}), ...(agent === undefined ? {} : { userAgent: capText(agent, MAX_USER_AGENT) }) };
  };
  const usesOAuth = verifier !== undefined && options.order.includes('oauth');
  return Object.assign(identify, {
    ready(req: IncomingMessage): Promise<void> | undefined {
      if (!usesOAuth) return undefined;
      const token = tokenOf(req);
      return token === undefined ? undefined : verifier!.prepare(token);
    },
    bindingOf(req: IncomingMessage): string | undefined {
      const token = tokenOf(req);
      const verdict = token === undefined ? undefined : verifier!.verdictOf(token);
      if (verdict?.kind !== 'verified') return req.headers.authorization;
      const { issuer, clientId, subject } = verdict.identity;
      return `oauth\n${issuer}\n${clientId}\n${subject ?? ''}`;
    },
    health: () => verifier?.health() ?? null,
    close: () => verifier?.close(),
  });
}
