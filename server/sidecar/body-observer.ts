import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';

export interface BodyObserver {
  write(chunk: Buffer): void;
  /** Calls `done` once every byte written has been decoded and observed. */
  end(done: () => void): void;
}

function decompressorFor(encoding: string | undefined): Gunzip | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress() as unknown as Gunzip;
    default:
      return undefined;
  }
}

/**
 * Shows the meter the bytes the client receives, as the client reads them once its content coding
 * is undone: a compressed answer is inflated on a copy, so what is forwarded stays untouched; any
 * other answer is shown as it passes. A body it cannot inflate is simply not observed further.
 * Decoding the bytes to text is the meter's (see answer-text.ts): a JSON answer is read only once
 * it is whole.
 */
export function createBodyObserver(contentEncoding: string | undefined, observe: (bytes: Buffer) => void): BodyObserver {
  const inflate = decompressorFor(contentEncoding);
  if (inflate === undefined) return { write: observe, end: (done) => done() };
  let broken = false;
  inflate.on('data', observe);
  inflate.on('error', () => {
    broken = true;
  });
  return {
    write: (chunk) => {
      if (!broken) inflate.write(chunk);
    },
    end: (done) => {
      if (broken) return done();
      inflate.once('end', done);
      inflate.once('error', done);
      inflate.end();
    },
  };
}
