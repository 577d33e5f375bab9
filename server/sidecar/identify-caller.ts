import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface Caller {
  /** The integration key: a credential fingerprint, never the credential. */
  integration: string;
  source: 'bearer-fingerprint' | 'anonymous';
}

export const ANONYMOUS: Caller = { integration: 'anonymous', source: 'anonymous' };

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * Identifies callers by an HMAC-SHA256 fingerprint of their bearer token under a per-install
 * secret: stable for one token, useless to anyone who reads the database. Self-reported
 * clientInfo is deliberately not an input.
 */
export function createCallerIdentifier(secret: string): (headers: IncomingHttpHeaders) => Caller {
  return (headers) => {
    const match = BEARER.exec(headers.authorization ?? '');
    if (match === null) return ANONYMOUS;
    const digest = createHmac('sha256', secret).update(match[1]!).digest('hex');
    return { integration: `tok_${digest.slice(0, 16)}`, source: 'bearer-fingerprint' };
  };
}
