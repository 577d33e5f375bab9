import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';

export interface EchoApp {
  origin: string;
  close(): Promise<void>;
}

/**
 * An Express app whose MCP route reads the raw request stream itself and keeps the text it got,
 * then answers a plain JSON-RPC result: what a handler behind the middleware receives, byte for byte.
 */
export async function startEchoApp(metered: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void, received: string[]): Promise<EchoApp> {
  const app = express();
  app.use('/mcp', metered as RequestHandler);
  app.post('/mcp', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push(text);
      const id = (JSON.parse(text) as { id?: unknown }).id ?? null;
      res.json({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'echo', version: '1' } } });
    });
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
