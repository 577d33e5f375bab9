import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import { Pool } from 'undici';

/** Headers undici refuses to be given: it frames the request and manages the connection itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * The bare proxy of bare-proxy.ts with undici's pooled client on the upstream leg instead of
 * node:http's: the same least work (method, path and headers forwarded, both bodies streamed), so
 * the two differ only in the client. `Pool.stream` writes the answer straight into the response.
 */
export function createBareUndiciProxy(upstream: URL): Server {
  const pool = new Pool(upstream.origin, { connections: 128, pipelining: 1, keepAliveTimeout: 65_000 });
  const server = http.createServer((req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : req;
    pool.stream(
      { path: req.url ?? '/', method: (req.method ?? 'GET') as 'GET', headers: forwardable(req.headers), body },
      ({ statusCode, headers }) => {
        res.writeHead(statusCode, headers as http.OutgoingHttpHeaders);
        return res;
      },
      (error) => {
        if (error === null) return;
        if (!res.headersSent) res.writeHead(502);
        res.end();
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.on('close', () => void pool.close());
  return server;
}
