import { createServer, type Server } from 'node:http';
import { sseAnswerEvents, resultMessage } from './mcp-answer.js';
import { ANSWER_PATHS } from './mcp-request.js';

const MAX_BODY = 64 * 1024;

/**
 * A stand-in MCP server that does almost nothing, so the proxies' own cost is what the bench
 * sees. It still reads and parses each body to echo the id, as any real server must.
 */
export function createUpstreamServer(): Server {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      let id: unknown = null;
      try {
        id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id ?? null;
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('bad json');
        return;
      }
      // `?pad=N` makes the result's text N bytes long: the ledger's larger answers.
      const query = (req.url ?? '').indexOf('?');
      const path = query < 0 ? req.url : req.url!.slice(0, query);
      const pad = query < 0 ? 0 : Math.min(Number(new URLSearchParams(req.url!.slice(query + 1)).get('pad')) || 0, 1 << 20);
      if (path === ANSWER_PATHS.sse) {
        const [progress, result] = sseAnswerEvents(id, pad);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(progress);
        res.end(result);
        return;
      }
      const body = resultMessage(id, pad);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  // Load generators hold their connections for the whole run; Node's 5 s default would cut idle ones between phases.
  server.keepAliveTimeout = 65_000;
  return server;
}
