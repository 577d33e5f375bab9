/**
 * The client's own headers a bridged request carries to the modern server: the end-to-end ones
 * (`Authorization` above all, cookies, a gateway's own), so the server authenticates and authorises
 * the client, not the bridge. Left out: hop-by-hop headers, those the bridge writes itself for the
 * modern request (framing, content negotiation, the MCP headers it derives from the body), and
 * `Accept-Encoding`, since the bridge reads the answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { HEADER } from '../protocol/versions.js';

const NOT_PASSED: ReadonlySet<string> = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade',
  'host', 'content-length', 'content-type', 'content-encoding', 'accept', 'accept-encoding', 'expect',
  HEADER.sessionId, HEADER.protocolVersion, HEADER.method, HEADER.name, HEADER.lastEventId,
]);

/** True for a header the bridge does not pass on (see above); `Mcp-Param-*` are derived from the body too. */
function isNotPassed(name: string, relayHeader: string): boolean {
  return NOT_PASSED.has(name) || name.startsWith('mcp-param-') || name === relayHeader;
}

/** The client's end-to-end headers as name/value pairs, names lower-cased, repeats kept. */
export function endToEndHeaders(headers: IncomingHttpHeaders, relayHeader: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(headers)) {
    if (isNotPassed(name, relayHeader)) continue;
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) pairs.push([name, one]);
    else pairs.push([name, value]);
  }
  return pairs;
}

/** The credential a request presents: its `Authorization`, or undefined. */
export function credentialOf(headers: IncomingHttpHeaders): string | undefined {
  return headers.authorization;
}
