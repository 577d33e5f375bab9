import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Header names a proxy never passes on (RFC 9110 §7.6.1), besides those a `Connection` header names. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

export interface HeaderTrustingProxy {
  origin: string;
  /** What it counted, by era: as it judged each request. */
  counts: Record<string, number>;
  close(): Promise<void>;
}

function judgeOnHeadersReceived(headers: http.IncomingHttpHeaders, body: Buffer): 'modern' | 'legacy' {
  const version = headers['mcp-protocol-version'];
  const showModern = version === '2026-07-28' && headers['mcp-method'] !== undefined && headers['mcp-session-id'] === undefined;
  let message: { method?: unknown; params?: { name?: unknown; _meta?: Record<string, unknown> } };
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    // A body it cannot read is judged on what the headers show.
    return showModern ? 'modern' : 'legacy';
  }
  if (Array.isArray(message) || message.method === 'initialize') return 'legacy';
  const meta = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (meta === undefined) return showModern ? 'modern' : 'legacy';
  const name = message.method === 'tools/call' ? message.params?.name : undefined;
  const agree = version === meta && headers['mcp-method'] === message.method && (name === undefined || headers['mcp-name'] === name);
  return meta === '2026-07-28' && agree && headers['mcp-session-id'] === undefined ? 'modern' : 'legacy';
}

/**
 * The negative control of the cut-corpus property: a deliberately weakened sidecar. It follows
 * the documented rule (server/protocol/policy-shape.ts: modern when the body's `_meta` names
 * 2026-07-28 outside a session, batch or `initialize` and the mirrored headers agree, or when a
 * body without that envelope comes with headers that show a modern request), refuses everything else with -32022 as a
 * cut does, and forwards as any conforming proxy must: without the hop-by-hop headers and those
 * a `Connection` header names. Its one fault is the class of bug the property must catch: it
 * judges on the headers it received, not on those it passes on.
 */
export async function startHeaderTrustingProxy(upstream: URL): Promise<HeaderTrustingProxy> {
  const counts: Record<string, number> = {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const era = judgeOnHeadersReceived(req.headers, body);
      counts[era] = (counts[era] ?? 0) + 1;
      if (era === 'legacy') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32022, message: 'Unsupported protocol version' } }));
        return;
      }
      const named = new Set(String(req.headers.connection ?? '').split(',').map((token) => token.trim().toLowerCase()));
      const headers: string[] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const lower = req.rawHeaders[i]!.toLowerCase();
        if (!HOP_BY_HOP.has(lower) && !named.has(lower) && lower !== 'content-length') headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      }
      headers.push('Host', upstream.host, 'Content-Length', String(body.length));
      const forwarded = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, setHost: false, agent: false }, (answer) => {
        const kept = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
        res.writeHead(answer.statusCode ?? 502, Object.fromEntries(kept));
        answer.pipe(res);
      });
      forwarded.on('error', () => res.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
