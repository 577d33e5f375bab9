/**
 * What both HTTP channels take from the peer's configuration: the limits every exchange runs
 * under, and the extra headers the user configured. The Streamable HTTP channel hands them on to
 * the HTTP+SSE channel it falls back to, so they live beside both rather than in either.
 */
import type { HttpTarget } from '../targets/peer-config.js';

export interface HttpChannelSettings {
  maxRedirects: number;
  maxBodyBytes: number;
}

/** The configured extra headers, minus any `mcp-*` header: those the prober sets itself. */
export function userHeaders(target: HttpTarget): Record<string, string> {
  return Object.fromEntries(Object.entries(target.headers ?? {}).filter(([name]) => !name.toLowerCase().startsWith('mcp-')).map(([n, v]) => [n.toLowerCase(), v]));
}
