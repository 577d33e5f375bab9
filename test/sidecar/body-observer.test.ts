import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { createBodyObserver } from '../../server/sidecar/body-observer.js';

const TEXT = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'héllo ✓ 工具 😀 '.repeat(200) }] } })}\n\n`;

/** Writes the chunks and answers the text observed once `end` calls back. */
function observe(encoding: string | undefined, chunks: Buffer[]): Promise<{ text: string; pieces: number; doneCalls: number }> {
  let text = '';
  let pieces = 0;
  let doneCalls = 0;
  const observer = createBodyObserver(encoding, (piece) => {
    text += piece;
    pieces += 1;
  });
  for (const chunk of chunks) observer.write(chunk);
  return new Promise((resolve) => {
    observer.end(() => {
      doneCalls += 1;
      // Let a second, erroneous call show up before answering.
      setImmediate(() => resolve({ text, pieces, doneCalls }));
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

  test('reassembles a character split across chunks at every byte position', async () => {
    const bytes = Buffer.from('a😀b✓c', 'utf8');
    for (let at = 0; at <= bytes.length; at += 1) {
      const { text } = await observe(undefined, [bytes.subarray(0, at), bytes.subarray(at)]);
      expect(text, `split at ${at}`).toBe('a😀b✓c');
    }
  });

  test('reassembles a body delivered one byte at a time', async () => {
    expect((await observe('identity', chunked(Buffer.from(TEXT, 'utf8'), 1))).text).toBe(TEXT);
  });

  test('never emits half a character while the rest is still to come', async () => {
    const pieces: string[] = [];
    const observer = createBodyObserver(undefined, (piece) => pieces.push(piece));
    const bytes = Buffer.from('✓', 'utf8');
    observer.write(bytes.subarray(0, 1));
    observer.write(bytes.subarray(1, 2));
    expect(pieces.join('')).toBe('');
    observer.write(bytes.subarray(2));
    expect(pieces.join('')).toBe('✓');
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
