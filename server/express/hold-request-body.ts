import type { IncomingMessage } from 'node:http';
import { parsedBodyText } from './parsed-body-text.js';
import { pushedBytes } from './pushed-bytes.js';
import { readChunksText } from '../sidecar/read-body-text.js';
import type { TappedBody } from './tap-request-body.js';

type Pushable = IncomingMessage & { body?: unknown; push(chunk: unknown, encoding?: BufferEncoding): boolean };

export interface BodyHold {
  /** Passes everything held on into the request, in order (its end too), and lets the rest flow as usual. */
  release(): void;
  /** Drops what was held and drains the rest, so the connection stays usable: for a request answered without its handler. */
  discard(): void;
}

/** A body kept back from the request stream until the policy has decided. */
class HeldBody implements BodyHold {
  /** What the text is made of: chunks peeked from the stream's buffer, then those held here. */
  private readonly seen: Buffer[] = [];
  /** The parser's push calls held back, to be made again exactly as they came. */
  private readonly held: [unknown, BufferEncoding | undefined][] = [];
  private bytes = 0;
  private ended = false;
  private settled = false;
  private reported = false;
  readonly holding: Pushable['push'] = holdingPush.bind(this);
  readonly closed: () => void = this.clientGone.bind(this);

  constructor(
    readonly req: Pushable,
    readonly push: Pushable['push'],
    private readonly maxBytes: number,
    private readonly done: (body: TappedBody | undefined, hold: BodyHold) => void,
  ) {}

  see(buffer: Buffer): boolean {
    this.bytes += buffer.length;
    if (this.bytes > this.maxBytes) return false;
    this.seen.push(buffer);
    return true;
  }

  hold(chunk: unknown, encoding: BufferEncoding | undefined): boolean {
    if (chunk === null) {
      this.ended = true;
      this.reportWhole();
      return false;
    }
    this.held.push([chunk, encoding]);
    const buffer = pushedBytes(chunk, encoding);
    if (buffer === undefined || this.see(buffer)) return true;
    // Past the cap: what came so far goes on, and so does the rest as it arrives; the request is
    // decided on its headers, as the proxy decides an oversized one.
    this.release();
    this.report({ text: undefined, complete: false });
    return this.req.readableLength < this.req.readableHighWaterMark;
  }


  /** Reports the body seen whole, read as the app's parser may read it. */
  reportWhole(): void {
    const read = readChunksText(this.seen, this.req.headers['content-type'], this.req.headers['content-encoding'], this.maxBytes);
    this.report({ text: read.text, complete: true, others: read.others, ...(read.encodingUnread === true ? { unreadableEncoding: true } : {}) });
  }

  report(body: TappedBody | undefined): void {
    if (this.reported) return;
    this.reported = true;
    this.req.off('close', this.closed);
    this.done(body, this);
  }

  release(): void {
    if (!this.restore()) return;
    for (const [chunk, encoding] of this.held) this.push.call(this.req, chunk, encoding);
    if (this.ended) this.push.call(this.req, null);
    this.held.length = 0;
  }

  discard(): void {
    if (!this.restore()) return;
    this.held.length = 0;
    if (this.ended) this.push.call(this.req, null);
    this.req.resume();
  }

  /** The client left before the body ended: the request goes on as it is, for the handler to meet. */
  private clientGone(): void {
    if (this.reported) return;
    this.release();
    this.report(undefined);
  }

  private restore(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.seen.length = 0;
    // By assignment, as the tap does: deleting the property would slow the request object down.
    if (this.req.push === this.holding) this.req.push = this.push;
    return true;
  }
}

function holdingPush(this: HeldBody, chunk: unknown, encoding?: BufferEncoding): boolean {
  return this.hold(chunk, encoding);
}

const NOTHING_HELD: BodyHold = { release() {}, discard() {} };

/**
 * Keeps a request body back from the stream, up to `maxBytes`, so the request can be decided on its
 * whole text before the handler sees any of it. The parser's chunks are held as it pushes them (so
 * the socket keeps reading, within the cap) and pushed into the stream, unchanged and in order, on
 * `release()`: to the handler the body then arrives as if it had just been sent. A body a parser in
 * front already read (`req.body`) is used as it is, and nothing is held.
 *
 * `done` is called once, with the hold to release or discard: with the body's text at its end, with `complete: false` as soon as it
 * passes the cap (everything then flows on at once), or with `undefined` when the client left first.
 */
export function holdRequestBody(request: IncomingMessage, maxBytes: number, done: (body: TappedBody | undefined, hold: BodyHold) => void): void {
  const req = request as Pushable;
  if (req.body !== undefined || req.readableEnded) {
    const text = parsedBodyText(req.body);
    return done({ text, complete: text !== undefined }, NOTHING_HELD);
  }
  const held = new HeldBody(req, req.push, maxBytes, done);
  req.push = held.holding;
  // Chunks the parser delivered before this middleware ran sit in the stream's buffer: they are
  // read for the text and put back in front, untouched, before any held chunk follows them.
  if (req.readableLength > 0 && req.readableFlowing !== true && req.readableEncoding === null) {
    const waiting: unknown = req.read();
    if (waiting !== null) {
      req.unshift(waiting as Buffer);
      if (!held.see(waiting as Buffer)) {
        held.release();
        return held.report({ text: undefined, complete: false });
      }
    }
  }
  if (req.complete) return held.reportWhole();
  req.on('close', held.closed);
}
