import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startRawUpstream, type RawUpstream } from '../support/raw-upstream.js';
import { startTestService, trafficTotals, type TestService } from '../support/start-test-service.js';

const TIMEOUT_MS = 800;
const EVENTS = 12;
const EVENT_EVERY_MS = 200;
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

/** Opens a socket, sends `bytes`, and resolves with everything it read once the server closes it. */
function stall(port: number, bytes: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(bytes);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1'))));
  socket.on('error', () => undefined);
  return { socket, closed };
}

/** Reads an SSE answer to its end and returns the data lines it carried. */
async function readEvents(response: Response): Promise<string[]> {
  const text = await response.text();
  return text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
}

describe('the sidecar listener bounds requests, not answers', () => {
  let upstream: RawUpstream;
  let service: TestService;
  beforeAll(async () => {
    upstream = await startRawUpstream((req, res, body) => {
      const quiet = req.url === '/quiet';
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const id = req.method === 'POST' ? (JSON.parse(body.toString('utf8')) as { id: number }).id : null;
      if (quiet) {
        // Silent for several request timeouts, then one event: a long-poll that must not be cut.
        setTimeout(() => res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n: 'late' } })}\n\n`), 3 * TIMEOUT_MS);
        return;
      }
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        const last = sent === EVENTS;
        const message = last && id !== null ? { jsonrpc: '2.0', id, result: { done: true } } : { jsonrpc: '2.0', method: 'notifications/progress', params: { n: sent } };
        res.write(`data: ${JSON.stringify(message)}\n\n`);
        if (last) {
          clearInterval(timer);
          res.end();
        }
      }, EVENT_EVERY_MS);
      res.on('close', () => clearInterval(timer));
    });
    service = await startTestService(new URL(upstream.origin), { requestTimeoutMs: TIMEOUT_MS, keepAliveTimeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await service?.dispose();
    await upstream?.close();
  });

  test('50 clients that send headers and half a POST body are answered 408 and closed; nothing reaches the upstream', async () => {
    const port = Number(service.sidecarUrl.port);
    const before = upstream.received.length;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n`;
    const clients = Array.from({ length: 50 }, () => stall(port, head + body.slice(0, body.length >> 1)));
    const answers = await Promise.all(clients.map((client) => client.closed));
    expect(answers.map((answer) => answer.split('\r\n', 1)[0])).toEqual(Array.from({ length: 50 }, () => 'HTTP/1.1 408 Request Timeout'));
    expect(upstream.received.length).toBe(before);
  });

  test('a client that connects and sends nothing, or leaves a keep-alive connection idle, is closed', async () => {
    const port = Number(service.sidecarUrl.port);
    const silent = stall(port, '');
    expect((await silent.closed).split('\r\n', 1)[0]).toBe('HTTP/1.1 408 Request Timeout');
    const idle = stall(port, `GET /.well-known/nothing HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    // It got its answer, and then the connection, kept alive and idle, was closed.
    expect((await idle.closed).split('\r\n', 1)[0]).toMatch(/^HTTP\/1\.1 \d{3} /);
  });

  test('an SSE stream that keeps sending for longer than the request timeout is never cut', async () => {
    const streamed = await fetch(new URL('/mcp', service.sidecarUrl), { headers: { accept: 'text/event-stream' } });
    const events = await readEvents(streamed);
    expect(events.map((data) => (JSON.parse(data) as { params: { n: number } }).params.n)).toEqual(Array.from({ length: EVENTS }, (_v, i) => i + 1));

    const posted = await fetch(new URL('/mcp', service.sidecarUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: META } }),
    });
    const answered = await readEvents(posted);
    expect(answered).toHaveLength(EVENTS);
    expect(JSON.parse(answered.at(-1)!)).toEqual({ jsonrpc: '2.0', id: 7, result: { done: true } });
    const outcomes = await trafficTotals(service, 'outcome', { method: 'tools/call' });
    expect(Object.entries(outcomes)).toEqual([[expect.stringMatching(/^served/), 1]]);
  });

  test('a quiet GET stream, silent for longer than the request timeout, is not cut', async () => {
    const response = await fetch(new URL('/quiet', service.sidecarUrl), { headers: { accept: 'text/event-stream' } });
    const events = await readEvents(response);
    expect(events.map((data) => (JSON.parse(data) as { params: { n: string } }).params.n)).toEqual(['late']);
  });
});
