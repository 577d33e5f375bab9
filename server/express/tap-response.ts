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
  const headers: HeaderMap = {};
  for (const [name, value] of Object.entries(res.getHeaders() as OutgoingHttpHeaders)) addHeader(headers, name, value);
  if (Array.isArray(named)) {
    if (named.length > 0 && Array.isArray(named[0])) for (const [name, value] of named as [string, unknown][]) addHeader(headers, name, value);
    else for (let i = 0; i + 1 < named.length; i += 2) addHeader(headers, String(named[i]), named[i + 1]);
  } else if (typeof named === 'object' && named !== null) {
    for (const [name, value] of Object.entries(named)) addHeader(headers, name, value);
  }
  return headers;
}

function chunkOf(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

/**
 * Watches what a handler writes on a response, through its own writeHead/write/end (flushHeaders and
 * implicit heads go through writeHead), and passes every call on unchanged with its own return
 * value. The sink sees the head before any chunk, and the end before the client does. A sink that
 * throws is reported, never passed to the handler.
 */
export function tapResponse(res: ServerResponse, sink: ResponseSink, report: (error: unknown, where: string) => void): void {
  let headSeen = false;
  let ended = false;
  const guard = (where: string, work: () => void) => {
    try {
      work();
    } catch (error) {
      report(error, where);
    }
  };
  const seeHead = (status: number, named: unknown) => {
    if (headSeen || res.headersSent) return;
    headSeen = true;
    guard('response-head', () => sink.head(status, headersOf(res, named)));
  };
  const seeChunk = (chunk: unknown, encoding: unknown) => {
    if (ended) return;
    guard('response-chunk', () => {
      const buffer = chunkOf(chunk, encoding);
      if (buffer !== undefined && buffer.length > 0) sink.chunk(buffer);
    });
  };

  const { writeHead, write, end } = res;
  res.writeHead = function tappedWriteHead(this: ServerResponse, ...args: unknown[]) {
    const status = Number(args[0]);
    seeHead(status, typeof args[1] === 'string' ? args[2] : args[1]);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  res.write = function tappedWrite(this: ServerResponse, ...args: unknown[]) {
    seeHead(res.statusCode, undefined);
    seeChunk(args[0], args[1]);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as ServerResponse['write'];
  res.end = function tappedEnd(this: ServerResponse, ...args: unknown[]) {
    if (!ended) {
      seeHead(res.statusCode, undefined);
      if (typeof args[0] !== 'function') seeChunk(args[0], args[1]);
      ended = true;
      guard('response-end', () => sink.end());
    }
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
  res.once('close', () => {
    if (!ended) {
      ended = true;
      guard('client-closed', () => sink.closed());
    }
  });
}
