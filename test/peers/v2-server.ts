import { createServer } from 'node:http';
import { createMcpHandler, McpServer, type ServerNotifier } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { registerDemoTools } from '../../server/demo/demo-tools.js';
import { registerBridgeSurface } from './register-bridge-surface.js';
import { listenPeer, recordRequest, type Peer, type SeenRequest } from './listen-peer.js';

/**
 * The v2 SDK's `createMcpHandler` on plain node:http at `/mcp`: `modern` rejects 2025-era traffic
 * (`legacy: 'reject'`), `dual` serves it statelessly (the SDK default). `surface: 'bridge'` adds a
 * resource, a prompt and a tool that elicits (register-bridge-surface.ts).
 */
export async function startV2Server(mode: 'modern' | 'dual', options: { surface?: 'demo' | 'bridge'; requireBearer?: string } = {}): Promise<Peer & { notify: ServerNotifier }> {
  const handler = createMcpHandler(
    (ctx) => {
      // The bridge surface also offers resource subscriptions, which modern clients take through subscriptions/listen.
      const server = new McpServer({ name: `v2-${mode}-peer`, version: '1.0.0' }, options.surface === 'bridge' ? { capabilities: { resources: { subscribe: true } } } : undefined);
      registerDemoTools(server, ctx.era);
      if (options.surface === 'bridge') registerBridgeSurface(server);
      return server;
    },
    mode === 'modern' ? { legacy: 'reject' } : {},
  );
  const handle = toNodeHandler(handler);
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    recordRequest(seen, req);
    if (new URL(req.url ?? '/', 'http://peer').pathname !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    // A protected resource as the authorization spec has it: no valid bearer token, a 401 naming its metadata.
    if (options.requireBearer !== undefined && req.headers.authorization !== `Bearer ${options.requireBearer}`) {
      const challenge = `Bearer resource_metadata="http://${req.headers.host ?? 'peer'}/.well-known/oauth-protected-resource/mcp"`;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': challenge }).end(JSON.stringify({ error: 'invalid_token' }));
      return;
    }
    void handle(req, res);
  });
  // `notify` publishes change notifications to the open `subscriptions/listen` streams.
  return { ...(await listenPeer(server, '/mcp', seen, () => handler.close())), notify: handler.notify };
}
