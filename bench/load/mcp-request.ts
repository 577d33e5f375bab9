/**
 * The one request shape the load generators send: a modern (2026-07-28) tools/call as a real
 * client would POST it, mirrored headers and bearer token included, so the sidecar walks its
 * ordinary metering path (body parse, header agreement, caller fingerprint) on every request.
 */

export const MODERN_VERSION = '2026-07-28';

/** Upstream paths: the bench upstream picks its answer shape by path, so one server serves both. */
export const ANSWER_PATHS = { json: '/mcp', sse: '/mcp-sse' } as const;
export type AnswerMode = keyof typeof ANSWER_PATHS;

export const MCP_REQUEST_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN_VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
  authorization: 'Bearer bench-token',
};

/** The body of request number `id`. */
export function mcpRequestBody(id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      },
    },
  });
}
