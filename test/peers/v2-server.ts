import { createServer, type ServerResponse } from 'node:http';
import { bearerAuthChallengeResponse, createMcpHandler, McpServer, OAuthError, OAuthErrorCode, verifyBearerToken, type ServerNotifier } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { registerDemoTools } from '../../server/demo/demo-tools.js';
import { registerBridgeSurface } from './register-bridge-surface.js';
import { listenPeer, recordRequest, type Peer, type SeenRequest } from './listen-peer.js';
import { PROTECTED_RESOURCE_METADATA_PATH, type OAuthResource } from './oauth-resource.js';
import { logServedBy, type ServedLog } from '../support/served-log.js';

/**
 * The v2 SDK's `createMcpHandler` on plain node:http at `/mcp`: `modern` rejects 2025-era traffic
 * (`legacy: 'reject'`), `dual` serves it statelessly (the SDK default). `surface: 'bridge'` adds a
 * resource, a prompt and a tool that elicits (register-bridge-surface.ts).
 */
export async function startV2Server(mode: 'modern' | 'dual', options: { surface?: 'demo' | 'bridge'; requireBearer?: string; oauth?: OAuthResource; served?: ServedLog } = {}): Promise<Peer & { notify: ServerNotifier }> {
  const handler = createMcpHandler(
    (ctx) => {
      // The bridge surface also offers resource subscriptions, which modern clients take through subscriptions/listen.
      const server = new McpServer({ name: `v2-${mode}-peer`, version: '1.0.0' }, options.surface === 'bridge' ? { capabilities: { resources: { subscribe: true } } } : undefined);
      registerDemoTools(server, ctx.era);
      if (options.surface === 'bridge') registerBridgeSurface(server);
      // The server's own log of what it served, on the path the SDK built this instance for.
      return options.served === undefined ? server : logServedBy(server, ctx.era, options.served);
    },
    mode === 'modern' ? { legacy: 'reject' } : {},
  );
  const handle = toNodeHandler(handler);
  const seen: SeenRequest[] = [];
  const { oauth } = options;
  const server = createServer((req, res) => {
    recordRequest(seen, req);
    const pathname = new URL(req.url ?? '/', 'http://peer').pathname;
    if (oauth !== undefined && pathname === PROTECTED_RESOURCE_METADATA_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(oauth.metadata()));
      return;
    }
    if (oauth !== undefined && pathname === '/mcp') {
      void verifyWithSdk(oauth, req.headers.authorization).then((refusal) => (refusal === undefined ? handle(req, res) : sendResponse(refusal, res)));
      return;
    }
    if (pathname !== '/mcp') {
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

/** The SDK's own bearer check on the server's side: undefined when the token is good, else the challenge it answers. */
async function verifyWithSdk(oauth: OAuthResource, authorization: string | undefined): Promise<Response | undefined> {
  const verifier = {
    verifyAccessToken: async (token: string) => {
      try {
        return await oauth.verify(token);
      } catch (error) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, error instanceof Error ? error.message : String(error));
      }
    },
  };
  try {
    await verifyBearerToken(authorization, { verifier, resourceMetadataUrl: oauth.metadataUrl(), expectedResource: oauth.resource() });
    return undefined;
  } catch (error) {
    return bearerAuthChallengeResponse(error, { resourceMetadataUrl: oauth.metadataUrl() });
  }
}

async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
