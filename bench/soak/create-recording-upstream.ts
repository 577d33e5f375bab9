import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export const SOAK_ID_HEADER = 'x-soak-id';

export interface ReceivedBody {
  bytes: number;
  sha256: string;
}

export interface RecordingUpstream {
  server: Server;
  /** What the upstream received, by the request's soak id; a request it never saw is absent. */
  received: Map<string, ReceivedBody>;
}

/**
 * A raw upstream for the fuzz: it hashes exactly the body bytes it received, keyed by the
 * request's soak id, and echoes them back as the answer, so hostile bodies also travel the answer path.
 */
export function createRecordingUpstream(): RecordingUpstream {
  const received = new Map<string, ReceivedBody>();
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      const id = req.headers[SOAK_ID_HEADER];
      if (typeof id === 'string') received.set(id, { bytes, sha256: hash.digest('hex') });
      const body = Buffer.concat(chunks);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 65_000;
  return { server, received };
}
