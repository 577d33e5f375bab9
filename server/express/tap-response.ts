import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

type HeaderMap = Record<string, string | string[] | undefined>;

export interface ResponseSink {
  head(status: number, headers: HeaderMap): void;
  /** A chunk of the body exactly as the handler wrote it. */
  chunk(chunk: Buffer): void;
  /** The handler ended the answer; called before the end is passed on. */
  end(): void;
  /** The connection closed before the handler ended the answer. */
  closed(): void;
}

function addHeader(into: HeaderMap, name: string, value: unknown): void {
  if (value === undefined) return;
  into[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
}

/** The headers a writeHead() call sends: those set before it, then those it names (object, flat or paired array). */
function headersOf(res: ServerResponse, named: unknown): HeaderMap {
  // getHeaders() answers a fresh object keyed by lower-case names; only values not already text need work.
  const headers = res.getHeaders() as HeaderMap;
  for (const name in headers) {
    const value: unknown = headers[name];
    if (typeof value !== 'string' && value !== undefined) headers[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  if (Array.isArray(named)) {
    if (named.length > 0 && Array.isArray(named[0])) for (const [name, value] of named as [string, unknown][]) addHeader(headers, name, value);
    else for (let i = 0; i + 1 < named.length; i += 2) addHeader(headers, String(named[i]), named[i + 1]);
  } else if (typeof named === 'object' && named !== null) {
    for (const name in named) if (Object.hasOwn(named, name)) addHeader(headers, name, (named as Record<string, unknown>)[name]);
  }
  return headers;
}

function chunkOf(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

type Original<F> = (this: ServerResponse, ...args: unknown[]) => F;

/**
 * One answer being watched, with the response's own writeHead/write/end it passes each call on to.
 */
class ResponseTap {
  private headSeen = false;
  private ended = false;

  constructor(
    readonly res: ServerResponse,
    private readonly sink: ResponseSink,
    private readonly report: (error: unknown, where: string) => void,
    private readonly onClose: (() => void) | undefined,
    readonly writeHead: Original<ServerResponse>,
    readonly write: Original<boolean>,
    readonly end: Original<ServerResponse>,
  ) {}

  head(status: number, named: unknown): void {
    if (this.headSeen || this.res.headersSent) return;
    this.headSeen = true;
    try {
      this.sink.head(status, headersOf(this.res, named));
    } catch (error) {
      this.report(error, 'response-head');
    }
  }

  chunk(chunk: unknown, encoding: unknown): void {
    if (this.ended) return;
    try {
      const buffer = chunkOf(chunk, encoding);
      if (buffer !== undefined && buffer.length > 0) this.sink.chunk(buffer);
    } catch (error) {
      this.report(error, 'response-chunk');
    }
  }

  finish(chunk: unknown, encoding: unknown): void {
    if (this.ended) return;
    this.head(this.res.statusCode, undefined);
    if (typeof chunk !== 'function') this.chunk(chunk, encoding);
    this.ended = true;
    try {
      this.sink.end();
    } catch (error) {
      this.report(error, 'response-end');
    }
  }

  closed(): void {
    if (!this.ended) {
      this.ended = true;
      try {
        this.sink.closed();
      } catch (error) {
        this.report(error, 'client-closed');
      }
    }
    this.onClose?.();
  }
}

// Shared by every response and bound to its tap, so watching one creates no closures; each tap
// keeps the functions it replaced, so a response watched twice (or re-wrapped) chains correctly.
// Each call is passed on exactly as made: `arguments`, not a rebuilt list.
function tappedWriteHead(this: ResponseTap, status: unknown, second?: unknown, third?: unknown): ServerResponse {
  this.head(Number(status), typeof second === 'string' ? third : second);
  return this.writeHead.apply(this.res, arguments as unknown as unknown[]);
}

function tappedWrite(this: ResponseTap, chunk: unknown, encoding?: unknown): boolean {
  this.head(this.res.statusCode, undefined);
  this.chunk(chunk, encoding);
  return this.write.apply(this.res, arguments as unknown as unknown[]);
}

function tappedEnd(this: ResponseTap, chunk?: unknown, encoding?: unknown): ServerResponse {
  this.finish(chunk, encoding);
  return this.end.apply(this.res, arguments as unknown as unknown[]);
}

function responseClosed(this: ResponseTap): void {
  this.closed();
}

/**
 * Watches what a handler writes on a response, through its own writeHead/write/end (flushHeaders and
 * implicit heads go through writeHead), and passes every call on unchanged with its own return
 * value. The sink sees the head before any chunk, and the end before the client does. A sink that
 * throws is reported, never passed to the handler. `onClose`, when given, runs once the response
 * closes, after the sink has heard of it.
 */
export function tapResponse(res: ServerResponse, sink: ResponseSink, report: (error: unknown, where: string) => void, onClose?: () => void): void {
  const tap = new ResponseTap(res, sink, report, onClose, res.writeHead as Original<ServerResponse>, res.write as Original<boolean>, res.end as Original<ServerResponse>);
  res.writeHead = tappedWriteHead.bind(tap) as ServerResponse['writeHead'];
  res.write = tappedWrite.bind(tap) as ServerResponse['write'];
  res.end = tappedEnd.bind(tap) as ServerResponse['end'];
  res.on('close', responseClosed.bind(tap));
}
