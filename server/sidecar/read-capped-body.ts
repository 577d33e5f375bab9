import type { IncomingMessage } from 'node:http';

export interface CappedBody {
  chunks: Buffer[];
  bytes: number;
  /** False when the cap was reached: the rest of the body is still in the (paused) request. */
  complete: boolean;
}

/**
 * Reads a request body up to `cap` bytes, then calls back once. Past the cap it stops reading and
 * leaves the rest in the paused stream, so the caller can forward what was read and pipe the
 * remainder unread. A callback, not a promise: this runs for every proxied POST.
 */
export function readCappedBody(req: IncomingMessage, cap: number, done: (error: Error | undefined, body: CappedBody) => void): void {
  const body: CappedBody = { chunks: [], bytes: 0, complete: false };
  const finish = (error: Error | undefined) => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    body.chunks.push(chunk);
    body.bytes += chunk.length;
    if (body.bytes > cap) {
      req.pause();
      finish(undefined);
    }
  };
  const onEnd = () => {
    body.complete = true;
    finish(undefined);
  };
  const onError = (error: Error) => finish(error);
  const onClose = () => finish(new Error('client closed the connection before the request body ended'));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
}
