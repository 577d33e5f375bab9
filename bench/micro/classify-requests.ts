/**
 * Requests the classifier micro-benchmarks time: one classified by its headers alone, and modern
 * and legacy POSTs with small and 1 KB bodies.
 */
import type { HttpRequestFacts } from '../../server/protocol/classify-http-request.js';
import { MCP_REQUEST_HEADERS, MODERN_VERSION, mcpRequestBody } from '../load/mcp-request.js';

/** A legacy session's GET for its event stream: no body, the headers decide. */
export const HEADER_CLASSIFIABLE: HttpRequestFacts = {
  method: 'GET',
  path: '/mcp',
  headers: {
    host: '127.0.0.1:8808',
    accept: 'text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'mcp-session-id': '3f1c2a9e-5b7d-4e8a-9c0f-1d2e3f4a5b6c',
    authorization: 'Bearer bench-token',
  },
  body: undefined,
  bodyTooLarge: false,
};

export const MODERN: HttpRequestFacts = {
  method: 'POST',
  path: '/mcp',
  headers: { ...MCP_REQUEST_HEADERS, host: '127.0.0.1:8808', 'content-length': '260' },
  body: mcpRequestBody(42),
  bodyTooLarge: false,
};

/** Tool arguments of the kind a search tool takes: nested objects, an array, escapes; about 1 KB in all. */
function searchArguments(): Record<string, unknown> {
  return {
    query: 'quarterly revenue by region, excluding "internal" transfers\nand refunds',
    filters: Array.from({ length: 8 }, (_, k) => ({ field: `dimension_${k}`, op: k % 2 === 0 ? 'eq' : 'in', value: k % 2 === 0 ? `value-${k}` : [k, k + 1, k + 2] })),
    options: { limit: 50, offset: 0, sort: [{ by: 'revenue', desc: true }], locale: 'de-DE', includeTotals: true, threshold: 0.125 },
    note: 'Zusammenfassung für die Geschäftsführung – bitte mit Vorjahr vergleichen.',
  };
}

function modernToolsCall(args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 42,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      },
    },
  });
}

/** A modern tools/call whose body is about 1 KB of many small members, mirrored headers included. */
export const MODERN_1KB: HttpRequestFacts = {
  method: 'POST',
  path: '/mcp',
  headers: { ...MCP_REQUEST_HEADERS, host: '127.0.0.1:8808' },
  body: modernToolsCall(searchArguments()),
  bodyTooLarge: false,
};

/** A modern tools/call whose 1 KB body is mostly one text argument. */
export const MODERN_1KB_TEXT: HttpRequestFacts = {
  ...MODERN_1KB,
  body: modernToolsCall({ text: `${'The quick brown fox jumps over the lazy dog. '.repeat(16)}Ende.` }),
};

export const LEGACY_SESSION: HttpRequestFacts = {
  method: 'POST',
  path: '/mcp',
  headers: {
    host: '127.0.0.1:8808',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'mcp-session-id': '3f1c2a9e-5b7d-4e8a-9c0f-1d2e3f4a5b6c',
    authorization: 'Bearer bench-token',
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
  bodyTooLarge: false,
};

/** A legacy session's tools/call with the same 1 KB of arguments. */
export const LEGACY_1KB: HttpRequestFacts = {
  ...LEGACY_SESSION,
  body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: searchArguments() } }),
};

export const INITIALIZE: HttpRequestFacts = {
  method: 'POST',
  path: '/mcp',
  headers: { host: '127.0.0.1:8808', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  }),
  bodyTooLarge: false,
};
