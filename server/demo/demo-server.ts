import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { registerDemoTools, type DemoEra } from './demo-tools.js';
import { createLegacySseHandler } from './legacy-sse-handler.js';

export type DemoServerOptions = {
  host?: string;
  port?: number;
  /** Out-of-band server errors; the demo never writes to the console itself. */
  onError?: (error: Error) => void;
};

export type DemoServer = {
  /** The Streamable HTTP endpoint: origin + `/mcp`. HTTP+SSE clients use origin + `/sse`. */
  url: URL;
  origin: string;
  close(): Promise<void>;
};

const MCP_PATH = '/mcp';
const SSE_PATH = '/sse';
const MESSAGES_PATH = '/messages';

function buildDemoServer(era: DemoEra): McpServer {
  const server = new McpServer({ name: 'mcp-sunset-demo', version: '1.0.0' });
  registerDemoTools(server, era);
  return server;
}

// A wildcard bind is reachable on loopback; the wildcard itself is not an address a client can dial.
function originOf({ address, family, port }: AddressInfo): string {
  if (address === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (address === '::') return `http://[::1]:${port}`;
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

/**
 * A dual-era MCP server for `mcp-sunset demo`: the v2 SDK's `createMcpHandler` at `/mcp` serves
 * 2026-07-28 traffic and, statelessly, 2025-era traffic; `/sse` + `/messages` serve HTTP+SSE clients.
 */
export async function startDemoServer(opts: DemoServerOptions = {}): Promise<DemoServer> {
  const { host = '127.0.0.1', port = 0, onError } = opts;
  const mcp = createMcpHandler((ctx) => buildDemoServer(ctx.era), onError ? { onerror: onError } : {});
  const handleMcp = toNodeHandler(mcp, onError ? { onerror: onError } : {});
  const sse = createLegacySseHandler(() => buildDemoServer('legacy'), MESSAGES_PATH, onError);

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://demo');
    if (url.pathname === MCP_PATH) return handleMcp(req, res);
    if (url.pathname === SSE_PATH && req.method === 'GET') return sse.openStream(res);
    if (url.pathname === MESSAGES_PATH && req.method === 'POST') return sse.postMessage(req, res, url.searchParams.get('sessionId'));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  };
  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      onError?.(error as Error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = originOf(server.address() as AddressInfo);
  return {
    url: new URL(MCP_PATH, origin),
    origin,
    async close() {
      await Promise.allSettled([sse.close(), mcp.close()]);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open SSE streams would otherwise hold close() until every client hung up.
      server.closeAllConnections();
      await closed;
    },
  };
}
