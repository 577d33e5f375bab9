import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpHandler, McpServer as V2McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { registerDemoTools } from '../../server/demo/demo-tools.js';
import { listenPeer, recordRequest, type Peer, type SeenRequest } from '../peers/listen-peer.js';
import { registerV1PeerTools } from '../peers/register-v1-peer-tools.js';
import { logDelivered, logServedBy, type ServedLog } from '../support/served-log.js';

export type AppKind = 'v1-session' | 'v1-stateless' | 'v1-sse' | 'v2-dual';

export interface MeteredAppOptions {
  /** The middleware under test, mounted in front of the MCP routes; absent for the unmetered twin. */
  metered?: RequestHandler | ((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void);
  /** Whether express.json() runs before the middleware (and the handlers get the parsed body). */
  json: boolean;
  /** Runs in each MCP route before the SDK handles the request (servedBy, say). */
  beforeHandle?: (req: IncomingMessage, res: ServerResponse) => void;
  /** The SDK's own log of what it served, on which path (served-log.ts); absent, nothing is logged. */
  served?: ServedLog;
}

function sessionOf(req: IncomingMessage): string | undefined {
  const id = req.headers['mcp-session-id'];
  return typeof id === 'string' ? id : undefined;
}

/** The parsed body when a parser ran, else undefined so the SDK reads the stream itself. */
function bodyOf(req: express.Request): unknown {
  return req.body;
}

function mountV1Session(app: Express, path: string, options: MeteredAppOptions): () => Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  app.all(path, async (req, res) => {
    options.beforeHandle?.(req, res);
    const sessionId = sessionOf(req);
    const known = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (known) return known.handleRequest(req, res, bodyOf(req));
    if (sessionId !== undefined || req.method !== 'POST') {
      res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
      return;
    }
    // Without a parser the body is unknown here: the transport itself refuses anything but an initialize.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = new V1McpServer({ name: 'v1-session-app', version: '1.0.0' });
    registerV1PeerTools(server);
    await server.connect(transport);
    // A v1 server serves only the legacy era.
    if (options.served !== undefined) logDelivered(transport, 'legacy', options.served);
    await transport.handleRequest(req, res, bodyOf(req));
  });
  return async () => {
    await Promise.allSettled([...sessions.values()].map((t) => t.close()));
    sessions.clear();
  };
}

function mountV1Stateless(app: Express, path: string, options: MeteredAppOptions): () => Promise<void> {
  app.post(path, async (req, res) => {
    options.beforeHandle?.(req, res);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = new V1McpServer({ name: 'v1-stateless-app', version: '1.0.0' });
    registerV1PeerTools(server);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, bodyOf(req));
  });
  app.all(path, (req, res) => {
    options.beforeHandle?.(req, res);
    res.status(405).set('allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  });
  return async () => {};
}

function mountV1Sse(app: Express, options: MeteredAppOptions): () => Promise<void> {
  const sessions = new Map<string, SSEServerTransport>();
  app.get('/sse', async (req, res) => {
    options.beforeHandle?.(req, res);
    const transport = new SSEServerTransport('/messages', res);
    sessions.set(transport.sessionId, transport);
    transport.onclose = () => sessions.delete(transport.sessionId);
    const server = new V1McpServer({ name: 'v1-sse-app', version: '1.0.0' });
    registerV1PeerTools(server);
    await server.connect(transport);
  });
  app.post('/messages', async (req, res) => {
    options.beforeHandle?.(req, res);
    const transport = sessions.get(String(req.query.sessionId));
    if (!transport) {
      res.status(404).send('Session not found');
      return;
    }
    await transport.handlePostMessage(req, res, bodyOf(req));
  });
  return async () => {
    await Promise.allSettled([...sessions.values()].map((t) => t.close()));
    sessions.clear();
  };
}

function mountV2Dual(app: Express, path: string, options: MeteredAppOptions): () => Promise<void> {
  const handler = createMcpHandler((ctx) => {
    const server = new V2McpServer({ name: 'v2-dual-app', version: '1.0.0' });
    registerDemoTools(server, ctx.era);
    return options.served === undefined ? server : logServedBy(server, ctx.era, options.served);
  });
  const handle = toNodeHandler(handler);
  app.all(path, (req, res) => {
    options.beforeHandle?.(req, res);
    void handle(req, res, bodyOf(req));
  });
  return () => handler.close();
}

/**
 * An Express app serving one kind of real SDK server at `/mcp` (or `/sse` + `/messages`), with the
 * middleware under test mounted in front when given, exactly as a host would.
 */
export async function startMeteredApp(kind: AppKind, options: MeteredAppOptions): Promise<Peer> {
  const app = express();
  const seen: SeenRequest[] = [];
  app.use((req, _res, next) => {
    recordRequest(seen, req);
    next();
  });
  if (options.json) app.use(express.json());
  if (kind === 'v1-sse') {
    if (options.metered) app.use(options.metered as RequestHandler);
    const close = mountV1Sse(app, options);
    return listenPeer(createServer(app), '/sse', seen, close);
  }
  if (options.metered) app.use('/mcp', options.metered as RequestHandler);
  const close = kind === 'v1-session' ? mountV1Session(app, '/mcp', options) : kind === 'v1-stateless' ? mountV1Stateless(app, '/mcp', options) : mountV2Dual(app, '/mcp', options);
  return listenPeer(createServer(app), '/mcp', seen, close);
}
