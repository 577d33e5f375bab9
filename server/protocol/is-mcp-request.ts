/**
 * Whether an HTTP request to the MCP endpoint could carry MCP at all. Pure and cheap: it runs on
 * every request. What fails it (OAuth discovery under `/.well-known/`, a favicon, a CORS preflight,
 * a plain page GET) is passed on untouched and counted apart, never as MCP traffic.
 */
import { headerValue } from './headers-agree.js';
import { HEADER } from './versions.js';

export interface McpRequestFacts {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** True for a path with a `.well-known` segment (RFC 8615 metadata, such as OAuth discovery). */
function isWellKnown(path: string): boolean {
  const query = path.indexOf('?');
  const pathname = query < 0 ? path : path.slice(0, query);
  return pathname.includes('/.well-known/') || pathname.endsWith('/.well-known');
}

/** A GET or DELETE carries MCP only when it names a session or asks for an event stream. */
function looksLikeMcpStream(headers: McpRequestFacts['headers']): boolean {
  const accept = headerValue(headers, HEADER.accept) ?? '';
  return accept.includes('text/event-stream')
    || headerValue(headers, HEADER.sessionId) !== undefined
    || headerValue(headers, HEADER.lastEventId) !== undefined
    || headerValue(headers, HEADER.protocolVersion) !== undefined;
}

/** True when the request may carry MCP: a POST, or a GET/DELETE that looks like a stream or a session's end. */
export function isMcpRequest(facts: McpRequestFacts): boolean {
  if (isWellKnown(facts.path)) return false;
  if (facts.method === 'POST') return true;
  if (facts.method === 'GET' || facts.method === 'DELETE') return looksLikeMcpStream(facts.headers);
  return false;
}
