import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { LRUCache } from 'lru-cache';
import proxyaddr from 'proxy-addr';
import { capText } from '../protocol/cap-text.js';

export interface Caller {
  /** The integration key: a fingerprint or a configured name, never the credential itself. */
  integration: string;
  source: 'gateway-header' | 'static-map' | 'bearer-fingerprint' | 'mtls-subject' | 'configured-name' | 'anonymous';
  /** Set on one exchange's copy when a plan in dry run would refuse it. */
  wouldBlock?: boolean;
}

export const ANONYMOUS: Caller = { integration: 'anonymous', source: 'anonymous' };

export type IdentityMechanism = 'gateway-header' | 'static-map' | 'bearer' | 'mtls';

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
}

const BEARER = /^bearer\s+(\S+)\s*$/i;
const MAX_NAME = 128;

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Identifies callers by trusted mechanisms only, in the configured order: a gateway's header (only
 * from a trusted proxy address), an operator's static map, the bearer token's HMAC fingerprint,
 * the mTLS client certificate. Self-reported clientInfo is deliberately not an input.
 */
export function createCallerIdentifier(options: CallerIdentityOptions): (req: IncomingMessage) => Caller {
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
    const match = BEARER.exec(authorization);
    if (match === null) return undefined;
    const fingerprint = `tok_${createHmac('sha256', options.secret).update(match[1]!).digest('hex').slice(0, 16)}`;
    fingerprints.set(authorization, fingerprint);
    return fingerprint;
  };

  const mechanisms: Record<IdentityMechanism, (req: IncomingMessage) => Caller | undefined> = {
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

  return (req) => {
    for (const identify of ordered) {
      const caller = identify(req);
      if (caller !== undefined) return caller;
    }
    return ANONYMOUS;
  };
}
