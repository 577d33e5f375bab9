/**
 * Compares the mirrored modern request headers with the body they mirror. Pure.
 * The body is the truth (26:basic/transports/index.mdx L38-50); a disagreement is recorded, never
 * used to re-classify.
 */
import { NAMED_PARAM } from './named-param.js';
import { HEADER } from './versions.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** The first value of a header, as Node hands it over. */
export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes the `=?base64?…?=` sentinel form of Mcp-Name / Mcp-Param-* values; undefined when malformed. */
export function decodeHeaderValue(raw: string): string | undefined {
  const match = SENTINEL.exec(raw);
  if (!match) return raw.startsWith('=?base64?') ? undefined : raw;
  try {
    const binary = atob(match[1] ?? '');
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** True when MCP-Protocol-Version, Mcp-Method and (where defined) Mcp-Name match the modern body. */
export function headersAgree(
  headers: Headers,
  body: { method: string; version: string; params: Record<string, unknown> | undefined },
): boolean {
  if (headerValue(headers, HEADER.protocolVersion) !== body.version) return false;
  if (headerValue(headers, HEADER.method) !== body.method) return false;
  const nameKey = NAMED_PARAM.get(body.method);
  if (nameKey === undefined) return true;
  const expected = body.params?.[nameKey];
  const raw = headerValue(headers, HEADER.name);
  if (typeof expected !== 'string') return raw === undefined;
  return raw !== undefined && decodeHeaderValue(raw) === expected;
}
