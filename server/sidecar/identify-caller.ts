import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';

export interface Caller {
  /** The integration key: a credential fingerprint, never the credential. */
  integration: string;
  source: 'bearer-fingerprint' | 'configured-name' | 'anonymous';
}

export const ANONYMOUS: Caller = { integration: 'anonymous', source: 'anonymous' };

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * Identifies callers by an HMAC-SHA256 fingerprint of their bearer token under a per-install
 * secret: stable for one token, useless to anyone who reads the database. Self-reported
 * clientInfo is deliberately not an input.
 */
export function createCallerIdentifier(secret: string, cacheSize = 1024): (headers: IncomingHttpHeaders) => Caller {
  // Callers reuse one token for many requests; an HMAC per request would be most of the cost.
  // The cache lives in memory only, like the request headers it is keyed by.
  const known = new LRUCache<string, Caller>({ max: cacheSize });
  return (headers) => {
    const authorization = headers.authorization;
    if (authorization === undefined) return ANONYMOUS;
    const cached = known.get(authorization);
    if (cached !== undefined) return cached;
    const match = BEARER.exec(authorization);
    if (match === null) return ANONYMOUS;
    const digest = createHmac('sha256', secret).update(match[1]!).digest('hex');
    const caller: Caller = { integration: `tok_${digest.slice(0, 16)}`, source: 'bearer-fingerprint' };
    known.set(authorization, caller);
    return caller;
  };
}
