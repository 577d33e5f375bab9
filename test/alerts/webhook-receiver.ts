import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  at: number;
  path: string;
  contentType: string | undefined;
  body: unknown;
}

/** How the receiver answers its n-th request (0-based); 'hang' never answers; a location makes it a redirect. */
export type Answer = number | 'hang' | { status: number; location: string };

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers for the coming requests in order; past the end, 200. */
  answers: Answer[];
  close(): Promise<void>;
}

/** A real HTTP webhook receiver on 127.0.0.1:0 that records every request it gets. */
export async function startWebhookReceiver(answers: Answer[] = []): Promise<WebhookReceiver> {
  const hanging: ServerResponse[] = [];
  const receiver: WebhookReceiver = { url: '', received: [], answers, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      receiver.received.push({ at: performance.now(), path: req.url ?? '', contentType: req.headers['content-type'], body: text === '' ? undefined : JSON.parse(text) });
      const answer = receiver.answers.shift() ?? 200;
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      if (typeof answer === 'object') {
        res.writeHead(answer.status, { 'content-type': 'text/plain', location: answer.location }).end(`moved to ${answer.location}`);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : `status ${answer}\n  from the receiver`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
