import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { PROTECTED_RESOURCE_METADATA_PATH, type OAuthResource } from './oauth-resource.js';
import { listenPeer, recordRequest, type Peer, type SeenRequest } from './listen-peer.js';
import { registerV1PeerTools } from './register-v1-peer-tools.js';
import { logDelivered, type ServedLog } from '../support/served-log.js';

/**
 * Legacy Streamable HTTP with sessions on the v1 SDK. The routing (and therefore every error body
 * below) follows the SDK's own `simpleStreamableHttp` example, because that is what deployed
 * legacy servers copied; the SDK transport itself never gets to answer these cases.
 */
export async function startV1SessionServer(options: { oauth?: OAuthResource; before?: RequestHandler; served?: ServedLog } = {}): Promise<Peer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const seen: SeenRequest[] = [];
  const app = createMcpExpressApp();
  app.use((req, _res, next) => {
    recordRequest(seen, req);
    next();
  });
  const { oauth } = options;
  // Middleware of the host's own, in front of everything at /mcp (the bearer check included): the metering middleware under test.
  if (options.before !== undefined) app.use('/mcp', options.before);
  if (oauth !== undefined) {
    // A protected resource with the SDK's own bearer middleware, as the SDK's examples set one up.
    app.get(PROTECTED_RESOURCE_METADATA_PATH, (_req, res) => void res.json(oauth.metadata()));
    const verifier = {
      verifyAccessToken: async (token: string) => {
        try {
          return await oauth.verify(token);
        } catch (error) {
          throw new InvalidTokenError(error instanceof Error ? error.message : String(error));
        }
      },
    };
    // Built per request: the resource (the sidecar's URL) is known only once the sidecar listens.
    app.use('/mcp', (req, res, next) => void requireBearerAuth({ verifier, resourceMetadataUrl: oauth.metadataUrl() })(req, res, next));
  }

  const sessionOf = (req: Request): string | undefined => {
    const id = req.headers['mcp-session-id'];
    return typeof id === 'string' ? id : undefined;
  };
  const sendSessionNotFound = (res: Response): void => {
    res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
  };

  app.post('/mcp', async (req, res) => {
    const sessionId = sessionOf(req);
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (known) {
      await known.handleRequest(req, res, req.body);
      return;
    }
    if (sessionId !== undefined) {
      sendSessionNotFound(res);
      return;
    }
    if (!isInitializeRequest(req.body)) {
      res.status(400).json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
        id: null,
      });
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Stored only once the id exists, so a racing follow-up request cannot miss it.
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = new McpServer({ name: 'v1-session-peer', version: '1.0.0' });
    registerV1PeerTools(server);
    await server.connect(transport);
    // The server's own log of what it served (a v1 server serves only the legacy era).
    if (options.served !== undefined) logDelivered(transport, 'legacy', options.served);
    await transport.handleRequest(req, res, req.body);
  });

  const handleSessionRequest = async (req: Request, res: Response): Promise<void> => {
    const sessionId = sessionOf(req);
    if (sessionId === undefined) {
      res.status(400).send('Missing session ID');
      return;
    }
    const transport = sessions.get(sessionId);
    if (!transport) {
      sendSessionNotFound(res);
      return;
    }
    await transport.handleRequest(req, res);
  };
  app.get('/mcp', handleSessionRequest);
  app.delete('/mcp', handleSessionRequest);

  return listenPeer(createServer(app), '/mcp', seen, async () => {
    await Promise.allSettled([...sessions.values()].map((t) => t.close()));
    sessions.clear();
  });
}
