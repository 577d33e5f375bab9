import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Config } from '../config/config-schema.js';

/**
 * The sidecar's listener: plain HTTP, or TLS when configured. With requestClientCert a client
 * certificate is asked for but not required: traffic is never refused here, an unverified
 * certificate simply does not identify anyone.
 */
export function createSidecarServer(tls: Config['tls'], handle: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = tls === undefined
    ? createServer({ requestTimeout: 0 }, handle)
    : createTlsServer(
        {
          requestTimeout: 0,
          cert: readFileSync(tls.certFile),
          key: readFileSync(tls.keyFile),
          ...(tls.caFile === undefined ? {} : { ca: readFileSync(tls.caFile) }),
          requestCert: tls.requestClientCert,
          rejectUnauthorized: false,
        },
        handle,
      );
  server.keepAliveTimeout = 65_000;
  return server;
}
