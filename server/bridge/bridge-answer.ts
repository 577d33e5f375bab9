import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * What follows the answer the bridge gives, to count it: the sidecar's exchange, which reads the
 * answer exactly as it reads an upstream's. Its calls never throw (the sidecar guards them).
 */
export interface BridgeExchange {
  responseHead(status: number, headers: IncomingHttpHeaders): void;
  responseChunk(text: string): void;
  responseEnd(): void;
  clientClosed(): void;
  upstreamFailed(): void;
}

/** Where the answer to one forwarded request goes: its own response, or an HTTP+SSE channel's stream. */
export interface AnswerSink {
  openStream(): void;
  event(message: unknown): void;
  final(status: number, message: unknown): void;
  /** The server refused the client's credential: its answer, passed on with these headers. */
  refused(status: number, contentType: string | null, body: Buffer, headers: readonly string[]): void;
}

/** For a bridge used on its own, with nothing counting. */
export const UNMETERED: BridgeExchange = Object.freeze({
  responseHead() {},
  responseChunk() {},
  responseEnd() {},
  clientClosed() {},
  upstreamFailed() {},
});

/** Raw `name, value, …` pairs as the lower-cased header object the exchange reads. */
function headerObject(raw: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[raw[i]!.toLowerCase()] = raw[i + 1]!;
  return headers;
}

/**
 * The bridge's answer to one request, written to the client and shown to the exchange alike: a JSON
 * body, an empty status, or an event stream of messages. Each part is counted before the client
 * sees it end, so a read of the counts right after includes it. The plan's announcement headers
 * (`announce`) follow the bridge's own.
 */
export class BridgeAnswer implements AnswerSink {
  private streaming = false;
  /** Headers of the bridge's own every answer carries, as `name, value, …`. */
  private own: string[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly exchange: BridgeExchange,
    private readonly announce: readonly string[],
  ) {}

  /** Adds a header to the answer still to be written. */
  addHeader(name: string, value: string): void {
    this.own.push(name, value);
  }

  json(status: number, body: unknown, extraHeaders: readonly string[] = []): void {
    const text = JSON.stringify(body);
    const head = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(text)), ...extraHeaders, ...this.own];
    this.exchange.responseHead(status, headerObject(head));
    this.exchange.responseChunk(text);
    this.exchange.responseEnd();
    this.res.writeHead(status, head.concat(this.announce));
    this.res.end(text);
  }

  empty(status: number, extraHeaders: readonly string[] = []): void {
    const head = [...extraHeaders, ...this.own];
    this.exchange.responseHead(status, headerObject(head));
    this.exchange.responseEnd();
    this.res.writeHead(status, [...head, ...this.announce]);
    this.res.end();
  }

  /** Answers with an event stream from now on (once only): messages before the final one need it. */
  openStream(): void {
    if (this.streaming) return;
    this.streaming = true;
    const head = ['Content-Type', 'text/event-stream', 'Cache-Control', 'no-cache', ...this.own];
    this.exchange.responseHead(200, headerObject(head));
    this.res.writeHead(200, head.concat(this.announce));
    this.res.flushHeaders();
  }

  /** One message on the stream, opening it when needed. */
  event(message: unknown): void {
    this.openStream();
    const text = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    this.exchange.responseChunk(text);
    this.res.write(text);
  }

  /** An event with a name of its own and plain data: the HTTP+SSE `endpoint` event. */
  namedEvent(name: string, data: string): void {
    this.openStream();
    const text = `event: ${name}\ndata: ${data}\n\n`;
    this.exchange.responseChunk(text);
    this.res.write(text);
  }

  /** Another node's event stream, passed on as it comes. */
  rawChunk(text: string): void {
    this.openStream();
    this.exchange.responseChunk(text);
    this.res.write(text);
  }

  /** Ends a stream with no message of its own. */
  end(): void {
    this.exchange.responseEnd();
    this.res.end();
  }

  /** The message that ends the answer: the last event of a stream, or the JSON body with `status`. */
  final(status: number, message: unknown): void {
    if (!this.streaming) return this.json(status, message);
    this.event(message);
    this.exchange.responseEnd();
    this.res.end();
  }

  refused(status: number, contentType: string | null, body: Buffer, headers: readonly string[]): void {
    if (this.streaming) {
      // The stream is open already (an input round came first): the refusal ends it as the request's error.
      return this.final(200, { jsonrpc: '2.0', id: null, error: { code: -32603, message: `mcp-sunset bridge: the server refused the credential (HTTP ${status})` } });
    }
    this.raw(status, contentType, body, headers);
  }

  /** Another node's answer, passed on as it came. */
  raw(status: number, contentType: string | null, body: Buffer, extraHeaders: readonly string[] = []): void {
    const head = contentType === null ? [...extraHeaders] : ['Content-Type', contentType, ...extraHeaders];
    head.push('Content-Length', String(body.length));
    this.exchange.responseHead(status, headerObject(head));
    if (body.length > 0) this.exchange.responseChunk(body.toString('utf8'));
    this.exchange.responseEnd();
    this.res.writeHead(status, head.concat(this.announce));
    this.res.end(body);
  }

  /** An answer the exchange is not shown, when it was already told how the request ended. */
  unmetered(status: number, body: unknown): void {
    const text = JSON.stringify(body);
    this.res.writeHead(status, ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(text))]);
    this.res.end(text);
  }
}
