import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { registerDemoTools } from '../../server/demo/demo-tools.js';
import { listenPeer, recordRequest, type Peer, type SeenRequest } from './listen-peer.js';
import { registerBridgeSurface } from './register-bridge-surface.js';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (response.body === null) return void res.end();
  Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
}

/**
 * A dual-era SDK v2 server whose legacy leg keeps sessions: the pattern the SDK documents for
 * `isLegacyRequest` (a sessionful Streamable HTTP wiring beside a `legacy: 'reject'` endpoint). Unlike
 * the default stateless leg, it can send a legacy client server-to-client requests, so the SDK's
 * own legacy shim turns an `input_required` result into an elicitation.
 */
export async function startV2SessionfulDualServer(): Promise<Peer> {
  const factory = (era: 'legacy' | 'modern') => {
    const server = new McpServer({ name: 'v2-dual-sessions-peer', version: '1.0.0' });
    registerDemoTools(server, era);
    registerBridgeSurface(server);
    return server;
  };
  const modern = createMcpHandler(() => factory('modern'), { legacy: 'reject' });
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const seen: SeenRequest[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = req.method === 'POST' ? await readBody(req) : '';
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://peer');
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(url, { method: req.method, headers, ...(req.method === 'POST' ? { body: text } : {}) });
    if (!(await isLegacyRequest(request.clone(), parsed))) return sendResponse(await modern.fetch(request), res);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(req, res, parsed);
    if (typeof sessionId === 'string') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await factory('legacy').connect(transport);
    await transport.handleRequest(req, res, parsed);
  }

  const server = createServer((req, res) => {
    recordRequest(seen, req);
    if (new URL(req.url ?? '/', 'http://peer').pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  return listenPeer(server, '/mcp', seen, async () => {
    await Promise.all([...sessions.values()].map((transport) => transport.close()));
    await modern.close();
  });
}
