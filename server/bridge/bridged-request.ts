import type { IncomingHttpHeaders } from 'node:http';

/** One legacy request as the sidecar read it: its body (undefined when too large to read whole, or a GET). */
export interface BridgedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer | undefined;
  bodyTooLarge: boolean;
  /** The caller the sidecar identified, opaque here: an HTTP+SSE message relayed on is counted under it. */
  caller?: string;
}
