/**
 * A GET without a session is either a sessionless Streamable HTTP stream or the opening of the
 * deprecated HTTP+SSE transport; only the first event of the answer tells.
 * Pure.
 */
import type { ClassifiedMessage } from './classified-message.js';
import { NON_RPC_METHOD } from './vocabulary.js';

export const HTTP_SSE_ENDPOINT_EVENT = 'endpoint';

/** Re-files a GET once its first SSE event is known. */
export function settleStreamOpen(message: ClassifiedMessage, firstEventName: string | undefined): ClassifiedMessage {
  if (firstEventName !== HTTP_SSE_ENDPOINT_EVENT) return message;
  return {
    kind: 'stream-open',
    method: NON_RPC_METHOD.get,
    id: null,
    era: 'legacy',
    transport: 'http+sse',
    // A stream the bridge opened stays filed as the bridge's.
    reason: message.reason === 'bridge' ? 'bridge' : 'sse-open',
    // The opening GET carries no version; one is negotiated later on the stream.
    version: null,
  };
}

/**
 * Resolves the `endpoint` event's URI against the URL of the GET that received it and answers
 * the path and query a client will POST to, or undefined when it points at another host. The
 * scheme is not compared: TLS is often terminated in front of the server.
 */
export function resolveEndpointPath(data: string, requestUrl: URL): string | undefined {
  let resolved: URL;
  try {
    resolved = new URL(data.trim(), requestUrl);
  } catch {
    return undefined;
  }
  if (resolved.host !== requestUrl.host) return undefined;
  return resolved.pathname + resolved.search;
}
