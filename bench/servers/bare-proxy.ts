import http, { type Server } from 'node:http';

/**
 * The baseline the sidecar is judged against: the least a Node reverse proxy can do (forward
 * method, path and headers, pipe both bodies) with the same keep-alive pooling the sidecar uses.
 * No metering, no header filtering, no error pages beyond a bare 502.
 */
export function createBareProxy(upstream: URL): Server {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const upstreamReq = http.request({
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    });
    upstreamReq.on('response', (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.headers);
      upRes.pipe(res);
    });
    upstreamReq.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    req.pipe(upstreamReq);
  });
  server.keepAliveTimeout = 65_000;
  server.on('close', () => agent.destroy());
  return server;
}
