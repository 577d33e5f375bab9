import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { holdRequestBody, type BodyHold } from '../../server/express/hold-request-body.js';
import type { TappedBody } from '../../server/express/tap-request-body.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

interface Seen {
  body: TappedBody | undefined;
  /** What the handler read from the stream after the hold was released. */
  read: string;
  /** Bytes waiting in the stream when the decision was made: none, while the body is held. */
  readBefore: number;
}

/** A server that holds each body, then releases (or discards) it and reads the stream as a handler would. */
async function holdingServer(maxBytes: number, then: 'release' | 'discard', seen: (s: Seen) => void, onClose?: () => void): Promise<URL> {
  server = createServer((req: IncomingMessage, res) => {
    let readBefore = 0;
    req.on('close', () => onClose?.());
    holdRequestBody(req, maxBytes, (body: TappedBody | undefined, hold: BodyHold) => {
      readBefore = req.readableLength;
      if (then === 'discard') {
        hold.discard();
        seen({ body, read: '', readBefore });
        res.writeHead(400).end('refused');
        return;
      }
      hold.release();
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen({ body, read: Buffer.concat(chunks).toString('utf8'), readBefore });
        res.end('ok');
      });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server!.address() as { port: number }).port}/`);
}

function send(url: URL, parts: Buffer[], gapMs: number, agent?: import('node:http').Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    let i = 0;
    const next = () => {
      if (i === parts.length - 1) return void req.end(parts[i]);
      req.write(parts[i++]);
      setTimeout(next, gapMs);
    };
    next();
  });
}

describe('holdRequestBody', () => {
  test('a body sent in parts is seen whole before the handler reads any of it, then reaches the handler byte for byte', async () => {
    let result: Seen | undefined;
    const url = await holdingServer(1024, 'release', (s) => (result = s));
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"é✓"}}';
    const bytes = Buffer.from(text);
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    expect((await send(url, [bytes.subarray(0, 7), bytes.subarray(7, cut), bytes.subarray(cut)], 30)).text).toBe('ok');
    expect(result!.body).toEqual({ text, complete: true, others: [] });
    expect(result!.readBefore).toBe(0);
    expect(result!.read).toBe(text);
  });

  test('past the cap everything flows on at once and the decision is told the body was not seen whole', async () => {
    let result: Seen | undefined;
    const url = await holdingServer(16, 'release', (s) => (result = s));
    const text = JSON.stringify({ padding: 'y'.repeat(100_000) });
    const bytes = Buffer.from(text);
    expect((await send(url, [bytes.subarray(0, 10), bytes.subarray(10, 50_000), bytes.subarray(50_000)], 20)).text).toBe('ok');
    expect(result!.body).toEqual({ text: undefined, complete: false });
    expect(result!.read).toBe(text);
  });

  test('a discarded body is drained, so the same connection serves the next request', async () => {
    const seen: Seen[] = [];
    const url = await holdingServer(1024, 'discard', (s) => seen.push(s));
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(url, [Buffer.from('{"a":'), Buffer.from('1}')], 20, agent);
      const second = await send(url, [Buffer.from('{"b":2}')], 0, agent);
      expect([first.status, second.status]).toEqual([400, 400]);
      expect(seen.map((s) => s.body?.text)).toEqual(['{"a":1}', '{"b":2}']);
    } finally {
      agent.destroy();
    }
  });

  test('a client that leaves mid-body is reported as gone, and the request goes on as it is', async () => {
    let result: Seen | 'pending' = 'pending';
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    server = createServer((req) => {
      holdRequestBody(req, 1024, (body, hold) => {
        hold.release();
        result = { body, read: '', readBefore: 0 };
      });
      req.on('close', () => closed());
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    const req = request(url, { method: 'POST', headers: { 'content-length': '100' } });
    req.on('error', () => {});
    req.write('{"partial":');
    setTimeout(() => req.destroy(), 50);
    await gone;
    expect(result).toEqual({ body: undefined, read: '', readBefore: 0 });
  });
});
