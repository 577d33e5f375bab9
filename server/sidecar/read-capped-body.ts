import type { IncomingMessage } from 'node:http';

export interface CappedBody {
  chunks: Buffer[];
  bytes: number;
  /** False when the cap was reached: the rest of the body is still in the (paused) request. */
  complete: boolean;
}

/**
 * Reads a request body up to `cap` bytes. Past the cap it stops reading and leaves the rest in
 * the paused stream, so the caller can forward what was read and pipe the remainder unread.
 */
export function readCappedBody(req: IncomingMessage, cap: number): Promise<CappedBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes > cap) {
        req.pause();
        cleanup();
        resolve({ chunks, bytes, complete: false });
      }
    };
    const onEnd = () => {
      cleanup();
      resolve({ chunks, bytes, complete: true });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('client closed the connection before the request body ended'));
    };
    req.on('data', onData);
    req.on('close', onClose);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
