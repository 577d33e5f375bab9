import { StringDecoder } from 'node:string_decoder';
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
 * Turns the bytes the client receives into text for the meter: UTF-8 split across chunks is
 * reassembled, and a compressed answer is inflated on a copy, so what is forwarded stays untouched.
 * A body it cannot decode is simply not observed further.
 */
export function createBodyObserver(contentEncoding: string | undefined, observe: (text: string) => void): BodyObserver {
  const decoder = new StringDecoder('utf8');
  const inflate = decompressorFor(contentEncoding);
  if (inflate === undefined) {
    return {
      write: (chunk) => observe(decoder.write(chunk)),
      end: (done) => {
        const rest = decoder.end();
        if (rest !== '') observe(rest);
        done();
      },
    };
  }
  let broken = false;
  inflate.on('data', (chunk: Buffer) => observe(decoder.write(chunk)));
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
