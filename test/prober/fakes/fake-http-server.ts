/**
 * A scripted MCP-ish HTTP server on node:http for the prober's decision table: each test says what
 * to answer to each request, and every request is recorded (method, path, headers, JSON body).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined. */
  body: Record<string, any> | undefined;
}

export interface SseEventOut {
  event?: string;
  data: string;
}

export type FakeReply =
  | { status: number; json?: unknown; text?: string; contentType?: string; headers?: Record<string, string>; sse?: SseEventOut[] }
  /** Never answers (the prober's deadline must end it). */
  | { hang: true }
  /** Keeps an event stream open; `push` writes to it later. */
  | { stream: SseEventOut[] }
  /** Destroys the socket without an answer. */
  | { reset: true };

export interface FakeContext {
  origin: string;
  /** Writes an event to every open stream. */
  push(event: SseEventOut): void;
  /** How many requests came before this one. */
  index: number;
}

export type FakeHandler = (request: FakeRequest, ctx: FakeContext) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  url: URL;
  origin: string;
  requests: FakeRequest[];
  /** The JSON-RPC methods POSTed, in order. */
  methods(): string[];
  close(): Promise<void>;
}

function writeEvent(res: ServerResponse, event: SseEventOut): void {
  res.write(`${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`);
}

export async function startFakeHttpServer(handler: FakeHandler, path = '/mcp'): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const streams = new Set<ServerResponse>();
  let origin = '';
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, any> | undefined;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const request: FakeRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    requests.push(request);
    const push = (event: SseEventOut) => streams.forEach((s) => writeEvent(s, event));
    const reply = await handler(request, { origin, push, index: requests.length - 1 });
    if ('hang' in reply) return;
    if ('reset' in reply) {
      req.socket.destroy();
      return;
    }
    if ('stream' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      streams.add(res);
      res.on('close', () => streams.delete(res));
      reply.stream.forEach((event) => writeEvent(res, event));
      return;
    }
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.sse !== undefined) {
      res.writeHead(reply.status, { 'content-type': 'text/event-stream', ...headers });
      reply.sse.forEach((event) => writeEvent(res, event));
      res.end();
      return;
    }
    if (reply.json !== undefined) {
      res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json', ...headers }).end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(reply.status, { ...(reply.text === undefined ? {} : { 'content-type': reply.contentType ?? 'text/plain' }), ...headers }).end(reply.text ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: new URL(path, origin),
    origin,
    requests,
    methods: () => requests.filter((r) => r.method === 'POST' && typeof r.body?.method === 'string').map((r) => r.body!.method as string),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** JSON-RPC answers, with the request's id unless told otherwise. */
export const rpc = {
  result: (request: FakeRequest, result: unknown) => ({ jsonrpc: '2.0', id: request.body?.id ?? null, result }),
  error: (request: FakeRequest | null, code: number, message: string, data?: unknown) => ({
    jsonrpc: '2.0',
    id: request === null ? null : (request.body?.id ?? null),
    error: data === undefined ? { code, message } : { code, message, data },
  }),
};

export const DISCOVER_RESULT = (versions: string[] = ['2026-07-28']) => ({
  supportedVersions: versions,
  capabilities: { tools: {} },
  resultType: 'complete',
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake-modern', version: '1.0.0' } },
});

export const INITIALIZE_RESULT = (version = '2025-11-25') => ({
  protocolVersion: version,
  capabilities: { tools: {} },
  serverInfo: { name: 'fake-legacy', version: '1.0.0' },
});

export const TOOLS = (...names: string[]) => ({ tools: names.map((name) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } })) });
