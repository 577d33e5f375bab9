import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
  closedEarly: boolean;
}

export interface RawUpstream {
  origin: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A hand-written upstream for edge cases real SDK peers cannot produce: it records the exact
 * bytes and headers it receives and answers however the test says.
 */
export async function startRawUpstream(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<RawUpstream> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const record: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body: Buffer.alloc(0), closedEarly: false };
    received.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      record.body = Buffer.concat(chunks);
      answer(req, res, record.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
