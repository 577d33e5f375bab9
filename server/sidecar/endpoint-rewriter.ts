import { HTTP_SSE_ENDPOINT_EVENT } from '../protocol/settle-stream-open.js';

const MAX_HEAD_BYTES = 64 * 1024;
const BOUNDARIES = ['\r\n\r\n', '\n\n', '\r\r'].map((b) => Buffer.from(b));

/** Byte offset just past the next event boundary at or after `from`, or -1. Bytes, so split UTF-8 stays intact. */
function endOfBlock(bytes: Buffer, from: number): number {
  let end = -1;
  for (const boundary of BOUNDARIES) {
    const at = bytes.indexOf(boundary, from);
    if (at >= 0 && (end < 0 || at + boundary.length < end)) end = at + boundary.length;
  }
  return end;
}

/** Keep-alive comments (`: …`) may come before the first real event. */
function isCommentBlock(block: string): boolean {
  return block.split(/\r\n|\n|\r/).every((line) => line === '' || line.startsWith(':'));
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
    let start = 0;
    for (;;) {
      const end = endOfBlock(bytes, start);
      if (end < 0) break;
      const block = bytes.subarray(start, end).toString('utf8');
      if (isCommentBlock(block)) {
        start = end;
        continue;
      }
      this.done = true;
      this.head = [];
      const first = rewriteEndpointEvent(block, this.rewrite);
      return Buffer.concat([bytes.subarray(0, start), Buffer.from(first, 'utf8'), bytes.subarray(end)]);
    }
    // Keep-alive comments go on at once; only an incomplete first event is held back.
    const pending = bytes.subarray(start);
    this.head = pending.length > 0 ? [pending] : [];
    this.headBytes = pending.length;
    if (this.headBytes > MAX_HEAD_BYTES) return Buffer.concat([bytes.subarray(0, start), this.flush()]);
    return bytes.subarray(0, start);
  }

  /** Whatever is still held back, unchanged. */
  flush(): Buffer {
    this.done = true;
    const rest = Buffer.concat(this.head);
    this.head = [];
    return rest;
  }
}
