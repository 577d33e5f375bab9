import { createServer, request } from 'node:http';
import { listenPeer, type Peer } from '../peers/listen-peer.js';

export interface Balancer extends Peer {
  /** Requests sent to each backend, in the order given. */
  served: number[];
  /** Every message a client sent through, as the JSON-RPC bodies of its POSTs (and one per GET or DELETE). */
  bodies: string[];
  /** Which backend took each of `bodies`. */
  backends: number[];
}

/**
 * A round-robin HTTP balancer with no affinity at all: each request, whatever session it belongs
 * to, goes to the next backend in turn, unless `pick` names one for it. Bodies are recorded on the
 * way through.
 */
export async function startRoundRobinBalancer(backends: URL[], endpointPath = '/mcp', pick?: (method: string, body: string) => number | undefined): Promise<Balancer> {
  const served = backends.map(() => 0);
  const bodies: string[] = [];
  const taken: number[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const index = pick?.(req.method ?? 'GET', body.toString('utf8')) ?? next++ % backends.length;
      served[index]! += 1;
      const target = backends[index]!;
      bodies.push(req.method === 'POST' ? body.toString('utf8') : req.method ?? '');
      taken.push(index);
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  return { ...(await listenPeer(server, endpointPath, [])), served, bodies, backends: taken };
}
