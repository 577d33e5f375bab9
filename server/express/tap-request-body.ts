import type { IncomingMessage } from 'node:http';
import { parsedBodyText } from './parsed-body-text.js';
import { pushedBytes } from './pushed-bytes.js';
import { readChunksText } from '../sidecar/read-body-text.js';

export interface TappedBody {
  /** The body text, when it was seen whole and within the cap. */
  text: string | undefined;
  /** False when the body passed the cap, or was not seen whole: classify from the headers. */
  complete: boolean;
  /** Other readings the app's parser may make of the bytes (see read-body-text.ts). */
  others?: readonly string[];
  /** True when it came whole but its Content-Encoding could not be undone: it cannot be shown modern. */
  unreadableEncoding?: boolean;
}

type Pushable = IncomingMessage & { body?: unknown; push(chunk: unknown, encoding?: BufferEncoding): boolean };

/** One body being watched on its way in. */
class BodyTap {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  finished = false;
  /** What this tap put in the request's `push`. */
  readonly tapped: Pushable['push'] = tappedPush.bind(this);

  constructor(
    readonly req: Pushable,
    readonly push: Pushable['push'],
    private readonly maxBytes: number,
    private readonly done: (body: TappedBody) => void,
  ) {}

  observe(chunk: unknown, encoding: BufferEncoding | undefined): void {
    const buffer = pushedBytes(chunk, encoding);
    if (buffer === undefined) return;
    this.bytes += buffer.length;
    if (this.bytes > this.maxBytes) return this.finish(false);
    this.chunks.push(buffer);
  }

  finish(complete: boolean): void {
    if (this.finished) return;
    const { chunks } = this;
    const read = complete ? readChunksText(chunks, this.req.headers['content-type'], this.req.headers['content-encoding'], this.maxBytes) : undefined;
    this.stop();
    this.done({ text: read?.text, complete, others: read?.others, ...(read?.encodingUnread === true ? { unreadableEncoding: true } : {}) });
  }

  finishIfComplete(): void {
    if (this.req.complete) this.finish(this.bytes <= this.maxBytes);
  }

  stop(): void {
    if (this.finished) return;
    this.finished = true;
    this.chunks.length = 0;
    // Put back by assignment, not `delete`: deleting a property V8 has since built on turns the
    // request into a slow dictionary object for everything the handler reads from it afterwards.
    // Only while it is still ours: a tap installed after this one keeps its place.
    if (this.req.push === this.tapped) this.req.push = this.push;
  }
}

/** The request's push, bound to its tap: shared, so watching a body creates no closure. */
function tappedPush(this: BodyTap, chunk: unknown, encoding?: BufferEncoding): boolean {
  if (!this.finished) {
    if (chunk === null) this.finish(true);
    else this.observe(chunk, encoding);
  }
  return this.push.call(this.req, chunk, encoding);
}

/**
 * Sees a request body without taking it from the handler behind. A body a parser already read
 * (`req.body`) is used as it is. Otherwise every chunk the HTTP parser hands the stream passes
 * through a copy on its way in (`push`), which works whatever way the handler reads later (data
 * events, pipe, async iteration, web streams) and never switches the stream to flowing mode;
 * chunks already waiting in the stream are peeked by reading and un-reading them before anyone
 * listens. `done` is called once: at the body's end, or as soon as it passes `maxBytes`.
 * `stop()` gives up (the exchange was classified without it) and puts `push` back as it was.
 */
export function tapRequestBody(request: IncomingMessage, maxBytes: number, done: (body: TappedBody) => void): { stop(): void } {
  const req = request as Pushable;
  if (req.body !== undefined || req.readableEnded) {
    const text = parsedBodyText(req.body);
    done({ text, complete: text !== undefined });
    return NOT_TAPPED;
  }
  const tap = new BodyTap(req, req.push, maxBytes, done);
  req.push = tap.tapped;
  // Chunks the parser delivered before this middleware ran sit in the stream's buffer: read them
  // and put them back in front, untouched. Only while nobody reads, and only when some are
  // waiting: a read() on an empty, ended stream would end it for the handler.
  if (req.readableLength > 0 && req.readableFlowing !== true && req.readableEncoding === null) {
    const waiting: unknown = req.read();
    if (waiting !== null) {
      tap.observe(waiting, undefined);
      req.unshift(waiting as Buffer);
    }
  }
  tap.finishIfComplete();
  return tap;
}

const NOT_TAPPED = { stop() {} };
