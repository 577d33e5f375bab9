import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AnswerTextDecoder, answerText } from '../../server/sidecar/answer-text.js';

// Bytes that exercise UTF-8 decoding: ASCII, every lead and continuation class, a BOM, and the bytes UTF-8 never uses.
const interesting = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((b) => [b]),
  fc.constantFrom([0xef, 0xbb, 0xbf], [0xc3, 0xa9], [0xe2, 0x9c, 0x93], [0xf0, 0x9f, 0x98, 0x80], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x7b], [0x22]),
  fc.string({ maxLength: 8 }).map((s) => [...Buffer.from(s, 'utf8')]),
);
const answerBytes = fc.array(interesting, { maxLength: 40 }).map((parts) => Buffer.from(parts.flat()));

/** The bytes cut at the given points (sorted, deduplicated), empty pieces included. */
function cut(bytes: Buffer, points: number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of at) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

function streamed(pieces: Buffer[]): string {
  const decoder = new AnswerTextDecoder();
  return pieces.map((piece) => decoder.write(piece)).join('') + decoder.end();
}

describe('answerText', () => {
  test('reads any bytes as response.json() decodes them before parsing', () => {
    fc.assert(
      fc.property(answerBytes, fc.array(fc.nat(), { maxLength: 5 }), (bytes, points) => {
        expect(answerText(cut(bytes, points))).toBe(new TextDecoder().decode(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  test('drops one byte-order mark at the start, and only there', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(answerText([bom, Buffer.from('{"a":1}')])).toBe('{"a":1}');
    expect(answerText([Buffer.concat([bom, bom, Buffer.from('x')])])).toBe('\uFEFFx');
    expect(answerText([Buffer.from('x'), bom])).toBe('x\uFEFF');
  });
});

describe('AnswerTextDecoder', () => {
  test('reads any bytes, cut anywhere, as TextDecoderStream does', () => {
    fc.assert(
      fc.property(answerBytes, fc.array(fc.nat(), { maxLength: 8 }), (bytes, points) => {
        expect(streamed(cut(bytes, points))).toBe(new TextDecoder().decode(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  test('a byte-order mark split over chunks is dropped; one later in the answer is kept', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xef, 0xbb, 0xbf, 0x62]);
    for (let at = 0; at <= bytes.length; at += 1) {
      expect(streamed([bytes.subarray(0, at), bytes.subarray(at)]), `cut at ${at}`).toBe('a\uFEFFb');
    }
  });

  test('never gives half a character while the rest is still to come', () => {
    const decoder = new AnswerTextDecoder();
    const check = Buffer.from('✓', 'utf8');
    expect(decoder.write(Buffer.from([0x61, check[0]!]))).toBe('a');
    expect(decoder.write(check.subarray(1, 2))).toBe('');
    expect(decoder.write(check.subarray(2))).toBe('✓');
    expect(decoder.end()).toBe('');
  });

  test('an answer that ends inside a character ends with a replacement character', () => {
    const decoder = new AnswerTextDecoder();
    expect(decoder.write(Buffer.from([0x61, 0xe2, 0x9c]))).toBe('a');
    expect(decoder.end()).toBe('\uFFFD');
  });
});
