import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { createBodyObserver } from '../../server/sidecar/body-observer.js';

const TEXT = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'héllo ✓ 工具 😀 '.repeat(200) }] } })}\n\n`;

/** Writes the chunks and answers the bytes observed, as UTF-8 text, once `end` calls back. */
function observe(encoding: string | undefined, chunks: Buffer[]): Promise<{ text: string; pieces: number; doneCalls: number }> {
  const seen: Buffer[] = [];
  let pieces = 0;
  let doneCalls = 0;
  const observer = createBodyObserver(encoding, (piece) => {
    seen.push(piece);
    pieces += 1;
  });
  for (const chunk of chunks) observer.write(chunk);
  return new Promise((resolve) => {
    observer.end(() => {
      doneCalls += 1;
      // Let a second, erroneous call show up before answering.
      setImmediate(() => resolve({ text: Buffer.concat(seen).toString('utf8'), pieces, doneCalls }));
    });
  });
}

function chunked(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

describe('createBodyObserver', () => {
  test('observes an uncompressed body as text', async () => {
    expect(await observe(undefined, [Buffer.from(TEXT, 'utf8')])).toMatchObject({ text: TEXT, doneCalls: 1 });
  });

  test('shows an uncompressed body as it passes, chunk for chunk, without copying', async () => {
    const chunks = chunked(Buffer.from(TEXT, 'utf8'), 1);
    const seen: Buffer[] = [];
    const observer = createBodyObserver('identity', (piece) => seen.push(piece));
    for (const chunk of chunks) observer.write(chunk);
    expect(seen.length).toBe(chunks.length);
    expect(seen.every((piece, i) => piece === chunks[i])).toBe(true);
  });

  test.each([
    { encoding: 'gzip', compress: gzipSync },
    { encoding: 'x-gzip', compress: gzipSync },
    { encoding: ' GZIP ', compress: gzipSync },
    { encoding: 'deflate', compress: deflateSync },
    { encoding: 'br', compress: brotliCompressSync },
  ])('inflates a $encoding body on a copy, leaving the forwarded bytes untouched', async ({ encoding, compress }) => {
    const compressed = compress(Buffer.from(TEXT, 'utf8'));
    const chunks = chunked(compressed, 7);
    const copies = chunks.map((chunk) => Buffer.from(chunk));
    const { text, doneCalls } = await observe(encoding, chunks);
    expect(text).toBe(TEXT);
    expect(doneCalls).toBe(1);
    expect(chunks.every((chunk, i) => chunk.equals(copies[i]!))).toBe(true);
  });

  test('a compressed body that cannot be inflated is not observed further, and end still calls back once', async () => {
    const good = gzipSync(Buffer.from(TEXT, 'utf8'));
    const corrupt = Buffer.concat([good.subarray(0, 10), Buffer.from('this is not deflate data at all'), good.subarray(10)]);
    const { text, doneCalls } = await observe('gzip', chunked(corrupt, 5));
    expect(text).not.toBe(TEXT);
    expect(doneCalls).toBe(1);
  });

  test('an empty compressed body still calls back once', async () => {
    expect(await observe('gzip', [])).toEqual({ text: '', pieces: 0, doneCalls: 1 });
  });

  test('an empty uncompressed body calls back once without observing anything', async () => {
    expect(await observe(undefined, [])).toEqual({ text: '', pieces: 0, doneCalls: 1 });
  });
});
