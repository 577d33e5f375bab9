import { MCP_REQUEST_HEADERS, mcpRequestBody } from './mcp-request.js';

/** What a load generator POSTs, and how it tells a right answer from a wrong one. */
export interface LoadRequest {
  headers: Readonly<Record<string, string>>;
  /** The body of request number `id`: a fresh id per request, as a client would send. */
  body(id: number): string;
  /**
   * When set, every answer's body is read and checked, and one that fails counts as a failure:
   * a JSON-RPC error can come with HTTP 200. Unset, bodies are drained unread.
   */
  isAnswer?(body: string): boolean;
}

/** The proxy bench's modern tools/call (mcp-request.ts), the generators' default. */
export const MODERN_LOAD_REQUEST: LoadRequest = { headers: MCP_REQUEST_HEADERS, body: mcpRequestBody };
