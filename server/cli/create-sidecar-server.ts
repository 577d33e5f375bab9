import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Config } from '../config/config-schema.js';

export interface SidecarTimeouts {
  /** The request line, headers and body must all arrive within this. */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * The sidecar's listener: plain HTTP, or TLS when configured. With requestClientCert a client
 * certificate is asked for but not required: traffic is never refused here, an unverified
 * certificate simply does not identify anyone.
 *
 * Node's requestTimeout runs only until the request has been received: an answer, an SSE stream
 * that keeps sending, or a quiet GET stream is never cut by it. A client that stalls mid-request
 * gets a 408 (when nothing was answered yet) and its connection closed. Node checks expiry every
 * connectionsCheckingInterval, so that is kept to a fraction of the timeout.
 */
export function createSidecarServer(tls: Config['tls'], timeouts: SidecarTimeouts, handle: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const common: ServerOptions = {
    requestTimeout: timeouts.requestTimeoutMs,
    // Node insists the headers deadline is no later than the whole request's.
    headersTimeout: Math.min(60_000, timeouts.requestTimeoutMs),
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.requestTimeoutMs / 4))),
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
  };
  const server = tls === undefined
    ? createServer(common, handle)
    : createTlsServer(
        {
          ...common,
          cert: readFileSync(tls.certFile),
          key: readFileSync(tls.keyFile),
          ...(tls.caFile === undefined ? {} : { ca: readFileSync(tls.caFile) }),
          requestCert: tls.requestClientCert,
          rejectUnauthorized: false,
        },
        handle,
      );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  return server;
}
