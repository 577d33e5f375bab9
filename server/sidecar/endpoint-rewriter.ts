import { HTTP_SSE_ENDPOINT_EVENT } from '../protocol/settle-stream-open.js';

const MAX_HEAD_BYTES = 64 * 1024;
const BOUNDARIES = ['\r\n\r\n', '\n\n', '\r\r'].map((b) => Buffer.from(b));

/** Byte offset just past the first event boundary, or -1. Bytes, so split UTF-8 stays intact. */
function endOfFirstEvent(bytes: Buffer): number {
  let end = -1;
  for (const boundary of BOUNDARIES) {
    const at = bytes.indexOf(boundary);
    if (at >= 0 && (end < 0 || at + boundary.length < end)) end = at + boundary.length;
  }
  return end;
}

/** Rewrites the data line of an SSE event block when it is the HTTP+SSE `endpoint` event. */
export function rewriteEndpointEvent(block: string, rewrite: (data: string) => string): string {
  const lines = block.split(/\r\n|\n|\r/);
  const isEndpoint = lines.some((line) => /^event:\s?/.test(line) && line.replace(/^event:\s?/, '') === HTTP_SSE_ENDPOINT_EVENT);
  if (!isEndpoint) return block;
  return block.replace(/^data:( ?)(.*)$/m, (_match, space: string, data: string) => `data:${space}${rewrite(data)}`);
}

/**
 * Holds back the start of an SSE stream until its first event is complete, rewrites that event if
 * it is `endpoint`, then passes every later byte through untouched.
 */
export class EndpointRewriter {
  private head: Buffer[] = [];
  private headBytes = 0;
  private done = false;

  constructor(private readonly rewrite: (data: string) => string) {}

  /** Bytes to send on now (possibly empty while the first event is still incomplete). */
  push(chunk: Buffer): Buffer {
    if (this.done) return chunk;
    this.head.push(chunk);
    this.headBytes += chunk.length;
    const bytes = Buffer.concat(this.head);
    const end = endOfFirstEvent(bytes);
    if (end < 0) return this.headBytes > MAX_HEAD_BYTES ? this.flush() : Buffer.alloc(0);
    this.done = true;
    this.head = [];
    const first = rewriteEndpointEvent(bytes.subarray(0, end).toString('utf8'), this.rewrite);
    return Buffer.concat([Buffer.from(first, 'utf8'), bytes.subarray(end)]);
  }

  /** Whatever is still held back, unchanged. */
  flush(): Buffer {
    this.done = true;
    const rest = Buffer.concat(this.head);
    this.head = [];
    return rest;
  }
}
