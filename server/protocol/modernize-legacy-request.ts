import { encodeHeaderValue } from './encode-header-value.js';
import { FIRST_MODERN_VERSION, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from './versions.js';
import { isRecord } from './is-record.js';
import { NAMED_PARAM } from './named-param.js';

/** What a legacy session settled in its handshake, which every modern request must carry itself. */
export interface HandshakeFacts {
  clientCapabilities: Record<string, unknown>;
  clientInfo: Record<string, unknown>;
}

export interface ModernizedRequest {
  /** The JSON-RPC request to send, `_meta` filled in. */
  message: { jsonrpc: '2.0'; id: string | number; method: string; params: Record<string, unknown> };
  /** Headers a modern Streamable HTTP request carries, as name/value pairs in order. */
  headers: [string, string][];
}

/**
 * Turns one request of a legacy session into a self-contained modern request: its `_meta` carries
 * the modern version, and the client capabilities and client info from the session's handshake,
 * so any node can serve it with no session state; the headers mirror the body as a modern client's
 * would. The client's own `_meta` keys (a progress token, say) are kept. Pure.
 * `Mcp-Param-*` headers are not set: they need the tool's input schema, which the request does not carry.
 */
export function modernizeLegacyRequest(
  request: { id: string | number; method: string; params?: unknown },
  handshake: HandshakeFacts,
  version: string = FIRST_MODERN_VERSION,
): ModernizedRequest {
  const params = isRecord(request.params) ? request.params : {};
  const meta = isRecord(params._meta) ? params._meta : {};
  const message = {
    jsonrpc: '2.0' as const,
    id: request.id,
    method: request.method,
    params: {
      ...params,
      _meta: { ...meta, [META_PROTOCOL_VERSION]: version, [META_CLIENT_CAPABILITIES]: handshake.clientCapabilities, [META_CLIENT_INFO]: handshake.clientInfo },
    },
  };
  const headers: [string, string][] = [
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
    ['MCP-Protocol-Version', version],
    ['Mcp-Method', request.method],
  ];
  const nameParam = NAMED_PARAM.get(request.method);
  const name = nameParam === undefined ? undefined : params[nameParam];
  if (typeof name === 'string') headers.push(['Mcp-Name', encodeHeaderValue(name)]);
  return { message, headers };
}
