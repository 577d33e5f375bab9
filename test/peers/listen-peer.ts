import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request as the peer saw it, so tests can check what a client put on the wire. */
export type SeenRequest = { method: string; path: string; authorization: string | undefined; protocolVersion: string | undefined };

export type Peer = {
  /** The MCP endpoint a client should use: `…/mcp` for Streamable HTTP, `…/sse` for HTTP+SSE. */
  url: URL;
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
};

export function recordRequest(seen: SeenRequest[], req: IncomingMessage): void {
  const version = req.headers['mcp-protocol-version'];
  seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, protocolVersion: typeof version === 'string' ? version : undefined });
}

/**
 * Listens on an ephemeral loopback port and builds the `Peer`. `beforeClose` runs first so that
 * transports can end their streams cleanly before the sockets are cut.
 */
export async function listenPeer(
  server: Server,
  endpointPath: string,
  seen: SeenRequest[],
  beforeClose: () => Promise<void> = async () => {},
): Promise<Peer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: new URL(endpointPath, origin),
    origin,
    seen,
    async close() {
      await beforeClose();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // SSE streams never end on their own; without this close() would wait for the clients.
      server.closeAllConnections();
      await closed;
    },
  };
}
