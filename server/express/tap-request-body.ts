import type { IncomingMessage } from 'node:http';

export interface TappedBody {
  /** The body text, when it was seen whole and within the cap. */
  text: string | undefined;
  /** False when the body passed the cap, or was not seen whole: classify from the headers. */
  complete: boolean;
}

type Pushable = IncomingMessage & { body?: unknown; push(chunk: unknown, encoding?: BufferEncoding): boolean };

/** The text of a body a parser in front already read: JSON re-serialised, which classifies the same. */
function parsedBodyText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  if (typeof body === 'object' && body !== null) return JSON.stringify(body);
  return undefined;
}

function asBuffer(chunk: unknown, encoding: BufferEncoding | undefined): Buffer | undefined {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding ?? 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

/**
 * Sees a request body without taking it from the handler behind. A body a parser already read
 * (`req.body`) is used as it is. Otherwise every chunk the HTTP parser hands the stream passes
 * through a copy on its way in (`push`), which works whatever way the handler reads later (data
 * events, pipe, async iteration, web streams) and never switches the stream to flowing mode;
 * chunks already waiting in the stream are peeked by reading and un-reading them before anyone
 * listens. `done` is called once: at the body's end, or as soon as it passes `maxBytes`.
 * `stop()` gives up (the exchange was classified without it) and puts the stream back as it was.
 */
export function tapRequestBody(request: IncomingMessage, maxBytes: number, done: (body: TappedBody) => void): { stop(): void } {
  const req = request as Pushable;
  if (req.body !== undefined || req.readableEnded) {
    const text = parsedBodyText(req.body);
    done({ text, complete: text !== undefined });
    return { stop() {} };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  let finished = false;
  const hadOwnPush = Object.hasOwn(req, 'push');
  const push = req.push;
  const restore = () => {
    if (hadOwnPush) req.push = push;
    else delete (req as Partial<Pushable>).push;
  };
  const finish = (complete: boolean) => {
    if (finished) return;
    finished = true;
    restore();
    const text = complete ? (chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')) : undefined;
    chunks.length = 0;
    done({ text, complete });
  };
  const observe = (chunk: unknown, encoding: BufferEncoding | undefined) => {
    const buffer = asBuffer(chunk, encoding);
    if (buffer === undefined) return;
    bytes += buffer.length;
    if (bytes > maxBytes) return finish(false);
    chunks.push(buffer);
  };

  req.push = function tappedPush(this: Pushable, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (!finished) {
      if (chunk === null) finish(true);
      else observe(chunk, encoding);
    }
    return push.call(this, chunk, encoding);
  };
  // Chunks the parser delivered before this middleware ran sit in the stream's buffer: read them
  // and put them back in front, untouched. Only while nobody reads, and only when some are
  // waiting: a read() on an empty, ended stream would end it for the handler.
  if (req.readableLength > 0 && req.readableFlowing !== true && req.readableEncoding === null) {
    const waiting: unknown = req.read();
    if (waiting !== null) {
      observe(waiting, undefined);
      req.unshift(waiting as Buffer);
    }
  }
  if (req.complete) finish(bytes <= maxBytes);
  return {
    stop() {
      if (finished) return;
      finished = true;
      chunks.length = 0;
      restore();
    },
  };
}
