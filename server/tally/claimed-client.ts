import type { ClientInfoHint } from '../protocol/classified-message.js';

/**
 * What an unnamed client says it is: its `clientInfo` (the `initialize` of its session, or a modern
 * request's `_meta`), else the product its `User-Agent` starts with, else nothing. A claim describes
 * the unknown base for outreach (one desktop host's old versions, or many scripts); it never names a
 * caller and decides nothing.
 */
export interface ClaimedClient {
  kind: 'client-info' | 'user-agent' | 'none';
  name: string;
  version: string;
}

export const NO_CLAIM: ClaimedClient = Object.freeze({ kind: 'none', name: '', version: '' });

/** The leading product token of a User-Agent (RFC 9110 section 10.1.5): `python-httpx/0.28.1 …` → python-httpx, 0.28.1. */
const PRODUCT = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64})(?:\/([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}))?/;

export function claimedClientOf(clientInfo: ClientInfoHint | undefined, userAgent: string | undefined): ClaimedClient {
  if (clientInfo !== undefined && clientInfo.name !== '') return { kind: 'client-info', name: clientInfo.name, version: clientInfo.version };
  return userAgentProduct(userAgent);
}

// Most unnamed traffic repeats one User-Agent: the last one read is kept, so a repeat costs a comparison.
let lastAgent: string | undefined;
let lastProduct: ClaimedClient = NO_CLAIM;

/** The product a User-Agent starts with, as a claim; NO_CLAIM when it names none. */
export function userAgentProduct(userAgent: string | undefined): ClaimedClient {
  if (userAgent === undefined) return NO_CLAIM;
  if (userAgent === lastAgent) return lastProduct;
  const product = PRODUCT.exec(userAgent.trim());
  lastAgent = userAgent;
  lastProduct = product === null ? NO_CLAIM : Object.freeze({ kind: 'user-agent', name: product[1]!, version: product[2] ?? '' });
  return lastProduct;
}
