import { createServer } from 'node:http';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { listenPeer, recordRequest, type Peer, type SeenRequest } from './listen-peer.js';
import { registerV1PeerTools } from './register-v1-peer-tools.js';
import { logDelivered, type ServedLog } from '../support/served-log.js';

export type V1SseServerOptions = {
  /** Mount under a prefix such as `/base`: then `GET /base/sse` and `POST /base/messages`. */
  basePath?: string;
  /** The server's own log of what it served (served-log.ts): a v1 server serves only the legacy era. */
  served?: ServedLog;
};

/** The deprecated HTTP+SSE transport (2024-11-05) on the v1 SDK's `SSEServerTransport`. */
export async function startV1SseServer(opts: V1SseServerOptions = {}): Promise<Peer> {
  const basePath = (opts.basePath ?? '').replace(/\/+$/, '');
  const sessions = new Map<string, SSEServerTransport>();
  const seen: SeenRequest[] = [];
  const app = createMcpExpressApp();
  app.use((req, _res, next) => {
    recordRequest(seen, req);
    next();
  });

  app.get(`${basePath}/sse`, async (_req, res) => {
    // The endpoint event carries this path; the client resolves it against the SSE URL.
    const transport = new SSEServerTransport(`${basePath}/messages`, res);
    sessions.set(transport.sessionId, transport);
    transport.onclose = () => sessions.delete(transport.sessionId);
    const server = new McpServer({ name: 'v1-sse-peer', version: '1.0.0' });
    registerV1PeerTools(server);
    await server.connect(transport);
    if (opts.served !== undefined) logDelivered(transport, 'legacy', opts.served);
  });

  app.post(`${basePath}/messages`, async (req, res) => {
    const transport = sessions.get(String(req.query.sessionId));
    if (!transport) {
      res.status(404).send('Session not found');
      return;
    }
    await transport.handlePostMessage(req, res, req.body);
  });

  return listenPeer(createServer(app), `${basePath}/sse`, seen, async () => {
    await Promise.allSettled([...sessions.values()].map((t) => t.close()));
    sessions.clear();
  });
}
