import { createServer, type Server } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { registerDemoTools } from '../../server/demo/demo-tools.js';

/** Where the SDK servers answer; the sidecar in front of them keeps the same path. */
export const SDK_SERVER_PATH = '/mcp';

/**
 * A real MCP server for the bridge bench: the v2 SDK's `createMcpHandler` on plain node:http at
 * /mcp with the demo tools, the shape of test/peers/v2-server.ts without its request log.
 * `dual` serves 2025-era requests statelessly (the SDK default); `modern` rejects them
 * (`legacy: 'reject'`), the server `serve --bridge` is meant to stand in front of.
 */
export function createSdkServer(mode: 'dual' | 'modern'): { server: Server; close(): Promise<void> } {
  const handler = createMcpHandler(
    (ctx) => {
      const server = new McpServer({ name: `bench-v2-${mode}`, version: '1.0.0' });
      registerDemoTools(server, ctx.era);
      return server;
    },
    mode === 'modern' ? { legacy: 'reject' } : {},
  );
  const handle = toNodeHandler(handler);
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://bench').pathname !== SDK_SERVER_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    void handle(req, res);
  });
  // Load generators hold their connections for the whole run; Node's 5 s default would cut idle ones between phases.
  server.keepAliveTimeout = 65_000;
  return { server, close: () => handler.close() };
}
