/**
 * The closed vocabulary every count is filed under. Pure data: the API validates
 * filters against these lists and the store keeps the strings as they are.
 */

export const ERAS = ['modern', 'legacy', 'unknown'] as const;
export type Era = (typeof ERAS)[number];

export const TRANSPORTS = ['streamable-http', 'http+sse', 'stdio'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** Why a message was filed under its era: the mechanism that was observed, never a claim alone. */
export const REASONS = [
  'modern-meta', // request body carries _meta["io.modelcontextprotocol/protocolVersion"]
  'modern-malformed', // modern headers (MCP-Protocol-Version / Mcp-Method) without the body envelope
  'modern-notification', // a notification sent with a modern version header
  'initialize', // the legacy handshake: initialize and notifications/initialized
  'session-header', // Mcp-Session-Id on the request
  'legacy-version-header', // no session, a known legacy MCP-Protocol-Version header
  'assumed-2025-03-26', // nothing at all: the spec's absent-header rule
  'batch', // an element of a JSON-RPC batch (2025-03-26 only)
  'client-response', // a client's answer to a server-initiated request
  'get-stream', // GET standalone stream
  'get-resume', // GET with Last-Event-ID
  'delete-session', // DELETE ending a session
  'sse-open', // the HTTP+SSE GET whose first event is `endpoint`
  'sse-message', // a POST to an HTTP+SSE message endpoint
  'stdio-process', // stdio, legacy scope opened by initialize on this process
  'stdio-pre-init', // stdio, no initialize yet and no modern envelope
  'body-too-large', // body past the classification cap: headers only
  'invalid-json', // body is not JSON
  'invalid-message', // JSON but not a JSON-RPC message
  'unsupported-content-type', // POST body that is not declared as JSON
  'unsupported-content-encoding', // a Content-Encoding the sidecar cannot undo (unknown, corrupt, or past the body limit once decoded)
  'ambiguous-json', // JSON that JSON parsers read differently (a repeated key, say): no single reading shows what the server gets
  'batch-too-large', // a batch of more messages than the limit (the SDK servers' 100), counted and judged as one
  'declared-by-app', // the in-process middleware's host named the era that served it (servedBy): its word wins over the classifier's
  'bridge', // legacy, answered by mcp-sunset's bridge in front of a modern-only server (the modern request it became is not counted)
] as const;
export type Reason = (typeof REASONS)[number];

export const OUTCOMES = [
  'served',
  'served-as-legacy', // a modern-shaped request answered without resultType
  'accepted', // 202 to a notification or client response
  'unsupported-version', // -32022
  'header-mismatch', // -32020
  'missing-capability', // -32021
  'method-not-found', // -32601
  'invalid-params', // -32602
  'session-gone', // 404 + -32001 on a session request
  'client-error',
  'server-error',
  'upstream-unreachable',
  'cancelled', // the client went away before the answer
  'no-response', // the exchange ended with no answer (or none is defined, as for stdio notifications)
  'blocked', // refused by our own brownout or cut policy
] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const MESSAGE_KINDS = ['request', 'notification', 'response', 'stream-open', 'session-delete', 'other'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The `method` of an exchange that carries no JSON-RPC message. */
export const NON_RPC_METHOD = {
  get: 'GET',
  delete: 'DELETE',
  unknownResponse: '(response)',
  unparsed: '(unparsed)',
} as const;
