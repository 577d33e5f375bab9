/**
 * JSON-RPC error codes that carry meaning in MCP, by name. Pure constants. The -320xx codes of
 * the 2026-07-28 revision are modern rejections: a server that answers with one speaks the modern
 * era, whatever else it refuses.
 */

/** The requested protocol version is not served; `data.supported` lists those that are. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** The MCP-Protocol-Version / Mcp-Method headers disagree with the body. */
export const HEADER_MISMATCH = -32020;
/** The request needs a client capability the caller did not declare (`data.requiredCapabilities`). */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;

/** The body is not JSON at all. */
export const PARSE_ERROR = -32700;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

/** What the 2025 SDKs answer a request they refuse before any session exists ("Bad Request: …"). */
export const LEGACY_BAD_REQUEST = -32000;
/** A 2025 Streamable HTTP session id the server no longer knows (with HTTP 404). */
export const SESSION_NOT_FOUND = -32001;
